/**
 * Each request carries its purpose (core/request/purpose.ts) and the after-request hooks ask it: through the real
 * composition over real HTTP, a conversation turn enters the request log (the status bar's last request, the session report),
 * while an inline suggestion, a commit message and a chat title do not, though each still writes its [usage] line.
 */
import * as assert from 'assert';
import type * as vscode from 'vscode';
import { feeds, PURPOSE_FEEDS, type RequestPurpose } from '../core/request/purpose';
import type { WarmTimers } from '../core/warming/cacheWarmer';
import { activateAgainst, ask, user, type ActivatedExtension } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';
import * as double from './support/vscodeDouble';

/** Warming timers that only count what the warmer asked for (none is ever fired here). */
class CountingTimers {
  set = 0;
  cleared = 0;
  private readonly live = new Set<number>();
  set_(run: () => unknown, ms: number): unknown {
    void run;
    void ms;
    this.live.add(++this.set);
    return this.set;
  }
  clear(handle: unknown): void {
    if (this.live.delete(handle as number)) this.cleared++;
  }
}

const SETTINGS = { 'inlineSuggestions.enabled': true, 'inlineSuggestions.model': 'fake-large', 'inlineSuggestions.debounceMs': 0, 'commitMessage.model': 'fake-large' };
const CODE = 'export function add(a: number, b: number) {\n  return \n}\n';

describe('request purpose decides the after-request hooks (extension, real HTTP)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, (s): ActivatedExtension => activateAgainst(s, SETTINGS, undefined, {}));
  const usageLines = () => ext().log.text().split('\n').filter((l) => l.includes('[usage]')).length;
  const conversations = () => ext().requests?.list().length ?? -1;
  afterEach(() => double.installedExtensions.delete('vscode.git'));

  it('a conversation turn enters the request log; inline, commit and a title request do not, yet each is accounted', async () => {
    await ask(ext(), 'fake-large', [user('What does the trim keep?')]);
    assert.strictEqual(conversations(), 1);
    const chatRecord = ext().requests?.latest();
    assert.ok(chatRecord, 'the chat turn is the last request');

    const document = double.documentOf(double.Uri.file('/ws/src/math.ts'), CODE, 'typescript');
    server().enqueueReply({ text: 'a + b;' });
    const items = await double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(1, 9), {}, new double.CancellationTokenSource().token);
    assert.strictEqual(items?.[0]?.insertText, 'a + b;');

    const repository = {
      rootUri: double.Uri.file('/ws'),
      inputBox: { value: '' },
      state: { indexChanges: [{}] },
      diff: async (cached?: boolean) => (cached ? 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+b\n' : ''),
      log: async () => [{ message: 'feat: x' }],
    };
    double.installedExtensions.set('vscode.git', { isActive: true, exports: { getAPI: () => ({ repositories: [repository] }) } });
    server().enqueueReply({ text: 'feat: add b' });
    await double.commands.executeCommand('opencode.generateCommitMessage', { rootUri: double.Uri.file('/ws') });
    assert.strictEqual(repository.inputBox.value, 'feat: add b');

    await ask(ext(), 'fake-large', [double.LanguageModelChatMessage.User('Write a short title for this conversation: what does the trim keep?') as unknown as vscode.LanguageModelChatRequestMessage], { tools: [] });

    assert.strictEqual(usageLines(), 4, 'every request wrote its [usage] line');
    assert.strictEqual(conversations(), 1, 'only the chat turn is a conversation');
    assert.strictEqual(ext().requests?.latest(), chatRecord, 'the chat turn is still the last request');
  });

  it('the table: only a conversation turn warms, is recorded and enters the request log', () => {
    const purposes = Object.keys(PURPOSE_FEEDS) as RequestPurpose[];
    assert.deepStrictEqual(purposes.filter((p) => feeds(p).warming), ['conversation']);
    assert.deepStrictEqual(purposes.filter((p) => feeds(p).requestLog), ['conversation']);
    assert.deepStrictEqual(purposes.filter((p) => feeds(p).recording), ['conversation']);
  });
});

describe('with warming on, only a conversation turn warms (extension, real HTTP)', () => {
  const server = useFakeServer();
  const timers = new CountingTimers();
  const warmTimers: WarmTimers = { set: (run, ms) => timers.set_(run, ms), clear: (handle) => timers.clear(handle) };
  const ext = useActivated(server, (s): ActivatedExtension => activateAgainst(s, { ...SETTINGS, 'promptCache.warming.enabled': true }, undefined, {}, warmTimers));
  /** The prompt tokens of each [usage] line naming `purpose` (none named: a conversation turn). */
  const prompts = (purpose?: string) => ext().log.text().split('\n').filter((l) => l.includes('[usage]') && (purpose ? l.includes(`purpose=${purpose}`) : !l.includes('purpose='))).map((l) => Number(/prompt=(\d+)/.exec(l)?.[1]));
  afterEach(() => double.installedExtensions.delete('vscode.git'));

  it('an inline suggestion or a commit message of a cacheable size schedules no warming, cancels none, and never becomes the last request', async () => {
    const long = 'a shared context worth caching, said again and again. '.repeat(300);
    await ask(ext(), 'fake-large', [user(`${long} What does the trim keep?`)]);
    assert.ok(prompts()[0] >= 1_024, `the turn is cacheable (${prompts()[0]} tokens)`);
    assert.strictEqual(timers.set, 1, 'the conversation turn starts its pause');
    const chatRecord = ext().requests?.latest();
    assert.ok(chatRecord, 'the chat turn is the last request');

    const body = Array.from({ length: 400 }, (_, i) => `export const value${i} = compute(${i}, "some words that make the file long enough to cache", [${i}, ${i + 1}, ${i + 2}]);`).join('\n');
    const code = `${body}\nexport function add(a: number, b: number) {\n  return \n}\n${body}\n`;
    const document = double.documentOf(double.Uri.file('/ws/src/math.ts'), code, 'typescript');
    server().enqueueReply({ text: 'a + b;' });
    const items = await double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(401, 9), {}, new double.CancellationTokenSource().token);
    assert.strictEqual(items?.[0]?.insertText, 'a + b;');
    assert.ok(prompts('inline')[0] >= 1_024, `the inline prompt is cacheable (${prompts('inline')[0]} tokens): only its purpose keeps it from warming`);

    const diff = `diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,400 @@\n a\n${Array.from({ length: 400 }, (_, i) => `+line ${i} of a change long enough to be cached`).join('\n')}\n`;
    const repository = {
      rootUri: double.Uri.file('/ws'),
      inputBox: { value: '' },
      state: { indexChanges: [{}] },
      diff: async (cached?: boolean) => (cached ? diff : ''),
      log: async () => [{ message: 'feat: x' }],
    };
    double.installedExtensions.set('vscode.git', { isActive: true, exports: { getAPI: () => ({ repositories: [repository] }) } });
    server().enqueueReply({ text: 'feat: add b' });
    await double.commands.executeCommand('opencode.generateCommitMessage', { rootUri: double.Uri.file('/ws') });
    assert.strictEqual(repository.inputBox.value, 'feat: add b');
    assert.ok(prompts('commit')[0] >= 1_024, `the commit prompt is cacheable (${prompts('commit')[0]} tokens)`);

    assert.strictEqual(timers.set, 1, 'neither the inline suggestion nor the commit message scheduled warming');
    assert.strictEqual(timers.cleared, 0, "neither cancelled the conversation's pause");
    assert.strictEqual(ext().requests?.latest(), chatRecord, 'the chat turn is still the last request');
    assert.strictEqual(ext().requests?.list().length, 1, 'only the chat turn entered the request log');
  });
});
