/**
 * The inline provider reads the document only after the quiet time and only by lines (issue 29), through the
 * activated extension (vscode double) over real HTTP to the fake server: no read per keystroke, never
 * getText(), a 20,000-line document read in a bounded window, a 2 MB line sent as a small body, and a
 * document changed during the quiet time never sent.
 */
import * as assert from 'assert';
import type * as vscode from 'vscode';
import { activateAgainst } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';
import * as double from './support/vscodeDouble';

const ON = { 'inlineSuggestions.enabled': true, 'inlineSuggestions.model': 'fake-large', 'inlineSuggestions.debounceMs': 30 };

/** A document that counts its line reads and refuses getText (the old adapter joined the whole file per keystroke). */
function countingDocument(lines: string[]): { document: vscode.TextDocument & { version: number }; reads: () => number } {
  let reads = 0;
  const document = {
    uri: double.Uri.file('/ws/src/big.js'),
    languageId: 'javascript',
    version: 1,
    lineCount: lines.length,
    lineAt: (i: number) => {
      reads++;
      return { text: lines[i] };
    },
    getText: () => {
      throw new Error('getText() read the whole document');
    },
    offsetAt: () => {
      throw new Error('offsetAt is not needed');
    },
  };
  return { document: document as unknown as vscode.TextDocument & { version: number }, reads: () => reads };
}

describe('inline suggestions: a bounded window of the document (extension, real HTTP)', () => {
  const server = useFakeServer();
  useActivated(server, (s) => activateAgainst(s, ON));
  const bodies = () => server().requests.filter((r) => r.method === 'POST').map((r) => r.body as { messages: { content: string }[] });

  it('a 20,000-line file: nothing read before the quiet time ends, then only lines near the cursor, never getText()', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `  const v${i} = items[${i % 7}] * ${i};`);
    const { document, reads } = countingDocument(lines);
    server().enqueueReply({ text: 'x' });
    const pending = double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(19_900, 2), {}, new double.CancellationTokenSource().token);
    assert.strictEqual(reads(), 0, 'nothing read per keystroke');
    await pending;
    assert.ok(reads() > 0 && reads() < 2_000, `${reads()} lines read`);
    const [body] = bodies();
    assert.ok(body.messages.at(-1)?.content.includes('  <|cursor|>const v19900'));
    assert.ok(body.messages[1].content.includes('const v19871 ='), 'the line above the anchor (19,872) is in the stable part');
  });

  it('a 2 MB line: the request body stays small; a document edited during the quiet time is not sent', async () => {
    const { document } = countingDocument(['var a=function(b){return b+1};'.repeat(70_000)]);
    server().enqueueReply({ text: 'x' });
    await double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(0, 1_000_000), {}, new double.CancellationTokenSource().token);
    const [body] = bodies();
    assert.ok(JSON.stringify(body).length < 8_000, `${JSON.stringify(body).length} bytes`);

    const pending = double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(0, 10), {}, new double.CancellationTokenSource().token);
    document.version = 2;
    assert.strictEqual(await pending, undefined);
    assert.strictEqual(bodies().length, 1, 'the stale request was never sent');
  });
});
