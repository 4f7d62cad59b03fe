/**
 * Inline suggestions and commit messages through the activated extension (vscode double) over real HTTP to
 * the fake OpenCode server: the provider the editor calls, the [inline] line with its cache hit, every
 * route, the status-bar toggle, and the Source Control command writing into the commit input box.
 */
import * as assert from 'assert';
import type * as vscode from 'vscode';
import { activateAgainst, type ActivatedExtension } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';
import * as double from './support/vscodeDouble';

const ON = { 'inlineSuggestions.enabled': true, 'inlineSuggestions.model': 'fake-large', 'inlineSuggestions.debounceMs': 0 };
const ROUTE_MODELS = { models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } } };
const CODE = `${Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`).join('\n')}\nexport function add(a: number, b: number) {\n  return \n}\n`;

async function suggest(text: string, offset: number, token = new double.CancellationTokenSource().token): Promise<string | undefined> {
  const document = double.documentOf(double.Uri.file('/ws/src/math.ts'), text, 'typescript');
  const line = text.slice(0, offset).split('\n').length - 1;
  const character = offset - text.lastIndexOf('\n', offset - 1) - 1;
  const items = await double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(line, character), {}, token);
  return items?.[0]?.insertText;
}

describe('editor features (extension, real HTTP)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, (s) => activateAgainst(s, ON));
  const chatBodies = () => server().requests.filter((r) => r.method === 'POST').map((r) => r.body as { messages?: { role: string; content: string }[] });

  it('inline: the model text appears as the suggestion at the cursor, with an [inline] line (latency, cache hit)', async () => {
    server().enqueueReply({ text: '```ts\na + b;\n```' });
    const offset = CODE.indexOf('  return ') + '  return '.length;
    assert.strictEqual(await suggest(CODE, offset), 'a + b;');
    assert.match(ext().log.text(), /\[info\] \[inline\] fake-large via chat: \d+ ms, 6 chars, cache hit 0\/\d+ tokens \(0\.0%\)\./);
    const sent = chatBodies()[0];
    assert.deepStrictEqual(sent.messages?.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
    assert.ok(sent.messages?.[3].content.includes('  return <|cursor|>\n}'));
  });

  it('inline: typing on below the anchor keeps the start of the prompt, so the second request is served from the prompt cache', async () => {
    const offset = CODE.indexOf('  return ') + '  return '.length;
    await suggest(CODE, offset);
    const typed = `${CODE.slice(0, offset)}a${CODE.slice(offset)}`;
    await suggest(typed, offset + 1);
    const [first, second] = chatBodies();
    assert.deepStrictEqual(second.messages?.slice(0, 3), first.messages?.slice(0, 3), 'the stable messages are byte-identical');
    assert.strictEqual(server().requests.filter((r) => r.method === 'POST')[1].headers['x-opencode-session'], server().requests.filter((r) => r.method === 'POST')[0].headers['x-opencode-session']);
    const hit = /\[inline\] fake-large via chat: \d+ ms, \d+ chars, cache hit (\d+)\/(\d+) tokens/g;
    const lines = [...ext().log.text().matchAll(hit)];
    assert.strictEqual(lines.length, 2);
    assert.ok(Number(lines[1][1]) > 0, `second request cached ${lines[1][1]} tokens`);
  });

  it('inline: a cut answer (connection broke after some text) is discarded, never offered as a suggestion', async () => {
    server().enqueueFault({ name: 'cut-after-text', afterChunks: 2 });
    server().enqueueReply({ text: 'a + b;' });
    const offset = CODE.indexOf('  return ') + '  return '.length;
    assert.strictEqual(await suggest(CODE, offset), undefined);
    assert.strictEqual(chatBodies().length, 1, 'not retried');
    assert.match(ext().log.text(), /\[stream\] The connection broke in the middle of fake-large's answer/);
  });

  for (const model of ['fake-responses', 'fake-messages', 'fake-native-gemini']) {
    it(`inline works on the route of ${model}`, async () => {
      ext().dispose();
      const routed = activateAgainst(server(), { ...ON, ...ROUTE_MODELS, 'inlineSuggestions.model': model });
      try {
        server().enqueueReply({ text: 'a + b;' });
        assert.strictEqual(await suggest(CODE, CODE.indexOf('  return ') + 9), 'a + b;');
        assert.match(routed.log.text(), new RegExp(`\\[inline\\] ${model} via (responses|messages|gemini): `));
      } finally {
        routed.dispose();
      }
    });
  }

  it('inline: off by default, and a request the editor cancelled before the quiet time is never sent', async () => {
    ext().dispose();
    const off = activateAgainst(server(), {});
    try {
      assert.strictEqual(await suggest(CODE, 10), undefined);
      assert.strictEqual(chatBodies().length, 0);
    } finally {
      off.dispose();
    }
    const on = activateAgainst(server(), { ...ON, 'inlineSuggestions.debounceMs': 50 });
    try {
      const source = new double.CancellationTokenSource();
      const pending = suggest(CODE, 10, source.token);
      source.cancel();
      assert.strictEqual(await pending, undefined);
      assert.strictEqual(chatBodies().length, 0);
    } finally {
      on.dispose();
    }
  });

  it('the status-bar toggle turns suggestions off and on (asking for a model when none is set)', async () => {
    const item = double.createdStatusItems.filter((i) => i.id === 'opencode.inlineStatus').pop();
    assert.match(item.text, /\$\(sparkle\) OpenCode/);
    await double.commands.executeCommand('opencode.toggleInlineSuggestions');
    assert.strictEqual(double.settingsStore.get('inlineSuggestions.enabled'), false);
    assert.match(item.text, /\$\(circle-slash\)/);
    double.setSetting('inlineSuggestions.model', '');
    double.quickPick.choose = (items) => items.find((i: { label: string }) => i.label === 'fake-small');
    try {
      await double.commands.executeCommand('opencode.toggleInlineSuggestions');
    } finally {
      double.quickPick.choose = undefined;
    }
    assert.strictEqual(double.settingsStore.get('inlineSuggestions.model'), 'fake-small');
    assert.strictEqual(double.settingsStore.get('inlineSuggestions.enabled'), true);
  });
});

/** A repository as the git extension's API gives it: staged diff, recent commits, the input box. */
function fakeGit(diff: string, subjects: string[], staged = 1) {
  const repository = {
    rootUri: double.Uri.file('/ws'),
    inputBox: { value: '' },
    state: { indexChanges: Array.from({ length: staged }, () => ({})) },
    diff: async (cached?: boolean) => (cached ? diff : ''),
    log: async () => subjects.map((message) => ({ message })),
  };
  double.installedExtensions.set('vscode.git', { isActive: true, exports: { getAPI: () => ({ repositories: [repository] }) } });
  return repository;
}

const DIFF = 'diff --git a/src/math.ts b/src/math.ts\nindex 1..2 100644\n--- a/src/math.ts\n+++ b/src/math.ts\n@@ -1,2 +1,3 @@\n export const a = 1;\n+export const b = 2;\n';

describe('commit messages (extension, real HTTP)', () => {
  const server = useFakeServer();
  const posted = () => server().requests.filter((r) => r.method === 'POST');
  const ext = useActivated(server, (s): ActivatedExtension => activateAgainst(s, { 'commitMessage.model': 'fake-large' }));
  afterEach(() => double.installedExtensions.delete('vscode.git'));

  it('writes the message for the staged diff into the input box, in the style of the recent subjects', async () => {
    const repository = fakeGit(DIFF, ['feat: add the adder', 'fix: round the sum']);
    server().enqueueReply({ text: 'feat: export b from math', chunkSize: 4 });
    await double.commands.executeCommand('opencode.generateCommitMessage', { rootUri: double.Uri.file('/ws') });
    assert.strictEqual(repository.inputBox.value, 'feat: export b from math');
    const body = posted()[0].body as { messages: { role: string; content: string }[] };
    const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
    assert.ok(user.includes('- feat: add the adder\n- fix: round the sum'));
    assert.ok(user.includes('+export const b = 2;'));
    assert.match(ext().log.text(), /\[commit\] fake-large: \d+ ms, 24 chars\./);
  });

  it('a cut answer (a provider error after some text) is discarded: the box gets back what it held, the user reads why', async () => {
    const repository = fakeGit(DIFF, []);
    repository.inputBox.value = 'my draft';
    server().enqueueFault({ name: 'error-after-text', afterChunks: 2 });
    await double.commands.executeCommand('opencode.generateCommitMessage');
    assert.strictEqual(repository.inputBox.value, 'my draft');
    assert.ok(double.shownMessages.some((m) => /could not write the commit message: The answer from fake-large was cut off: the provider reported an error: Overloaded/.test(m.message)), JSON.stringify(double.shownMessages));
  });

  it('a diff over the budget is summarized file by file, and the user is told', async () => {
    const big = Array.from({ length: 60 }, (_, f) => `diff --git a/f${f}.ts b/f${f}.ts\n--- a/f${f}.ts\n+++ b/f${f}.ts\n@@ -1 +1,400 @@\n${Array.from({ length: 400 }, (_, i) => `+const line${i} = "${'x'.repeat(20)}";`).join('\n')}`).join('\n');
    const repository = fakeGit(big, []);
    await double.commands.executeCommand('opencode.generateCommitMessage');
    assert.ok(repository.inputBox.value.length > 0);
    const user = (posted()[0].body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ?? '';
    assert.match(user, /is over the 12000-token budget, so it is summarized/);
    assert.ok(user.includes('- f59.ts: +400 −0, 1 hunk(s)'), 'every file listed');
    assert.ok(double.shownMessages.some((m) => /was over the 12000-token budget/.test(m.message)));
  });

  it('nothing staged: says so, sends nothing; cancelling stops the stream and keeps what arrived', async () => {
    fakeGit(DIFF, [], 0);
    await double.commands.executeCommand('opencode.generateCommitMessage');
    assert.ok(double.shownMessages.some((m) => /stage the changes/.test(m.message)));
    assert.strictEqual(posted().length, 0);
    const repository = fakeGit(DIFF, []);
    server().enqueueReply({ text: 'a long message that arrives slowly', chunkSize: 2, delayMsBetweenChunks: 30 });
    const running = double.commands.executeCommand('opencode.generateCommitMessage');
    for (let i = 0; i < 100 && repository.inputBox.value.length < 4; i++) await new Promise((r) => setTimeout(r, 10));
    double.progressCancel.current?.();
    await running;
    assert.ok(repository.inputBox.value.length > 0 && repository.inputBox.value.length < 'a long message that arrives slowly'.length, repository.inputBox.value);
    assert.match(ext().log.text(), /\[commit\] fake-large: cancelled after \d+ ms\./);
  });
});

export type { vscode };
