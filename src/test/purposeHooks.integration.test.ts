/**
 * Each request carries its purpose (core/request/purpose.ts) and the after-request hooks ask it: through the real
 * composition over real HTTP, a conversation turn enters the request log (the status bar's last request, the session report),
 * while an inline suggestion, a commit message and a chat title do not, though each still writes its [usage] line.
 */
import * as assert from 'assert';
import type * as vscode from 'vscode';
import { feeds, PURPOSE_FEEDS, type RequestPurpose } from '../core/request/purpose';
import { activateAgainst, ask, user, type ActivatedExtension } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';
import * as double from './support/vscodeDouble';

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
