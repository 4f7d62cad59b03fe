/**
 * Issue 32 item 1: inline suggestions only where a user edits code — files and untitled documents, in the
 * languages `opencode.inlineSuggestions.languages` names — never in VS Code's chat input, the commit box, an
 * output or the settings editor. (That they never become the status bar's last chat request nor a report
 * conversation: purposeHooks.integration.test.ts.)
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { offersInline, INLINE_SCHEMES } from '../core/inline/inlineWhere';
import { readInlineLanguages } from '../core/config/editorSettings';
import { activateAgainst } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';
import * as double from './support/vscodeDouble';

const ON = { 'inlineSuggestions.enabled': true, 'inlineSuggestions.model': 'fake-large', 'inlineSuggestions.debounceMs': 0 };
/** The schemes VS Code gives the inputs that are not code: the chat input, the SCM input, outputs, settings. */
const NOT_CODE = ['vscode-chat-input', 'chatSessionInput', 'vscode-scm', 'output', 'vscode-settings', 'vscode-userdata', 'comment'];

async function suggestIn(uri: double.Uri, languageId: string): Promise<unknown> {
  const text = 'const a = 1;\nconst b = ';
  const document = double.documentOf(uri, text, languageId);
  return double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(1, 10), {}, new double.CancellationTokenSource().token);
}

describe('inline suggestions: where', () => {
  it('offers only in file and untitled documents, in the named languages ("*": all)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INLINE_SCHEMES, ...NOT_CODE), fc.constantFrom('typescript', 'python', 'plaintext'), fc.subarray(['*', 'typescript', 'python']), (scheme, language, languages) => {
        const expected = INLINE_SCHEMES.includes(scheme) && (languages.includes('*') || languages.includes(language));
        assert.strictEqual(offersInline(scheme, language, languages), expected);
      }),
    );
  });

  it('reads the languages setting: a list of ids; anything else warns and means every language; bounded', () => {
    const warnings: string[] = [];
    assert.deepStrictEqual(readInlineLanguages(undefined, (m) => warnings.push(m)), ['*']);
    assert.deepStrictEqual(readInlineLanguages([' typescript ', 'python', 'python', ''], (m) => warnings.push(m)), ['typescript', 'python']);
    assert.strictEqual(warnings.length, 0);
    assert.deepStrictEqual(readInlineLanguages('typescript', (m) => warnings.push(m)), ['*']);
    assert.deepStrictEqual(readInlineLanguages([1], (m) => warnings.push(m)), ['*']);
    assert.strictEqual(warnings.length, 2);
    assert.match(warnings[0], /opencode\.inlineSuggestions\.languages "typescript" is not a list of language ids; using \["\*"\]\./);
    assert.strictEqual(readInlineLanguages(Array.from({ length: 5_000 }, (_, i) => `l${i}`), () => undefined).length, 200);
  });

  describe('through the activated extension (real HTTP)', () => {
    const server = useFakeServer();
    const ext = useActivated(server, (s) => activateAgainst(s, ON));
    const posts = () => server().requests.filter((r) => r.method === 'POST').length;

    it('registers for file and untitled documents only, not { pattern: "**" }', () => {
      assert.ok(ext());
      assert.deepStrictEqual(double.inlineSelectors[0], [{ scheme: 'file' }, { scheme: 'untitled' }]);
    });

    it('the chat input, the commit box, an output and the settings editor get no suggestion and send no request', async () => {
      for (const scheme of NOT_CODE) assert.strictEqual(await suggestIn(double.Uri.from({ scheme, path: 'input-1' }), 'plaintext'), undefined, scheme);
      assert.strictEqual(posts(), 0);
      server().enqueueReply({ text: '2;' });
      const items = (await suggestIn(double.Uri.from({ scheme: 'untitled', path: 'Untitled-1' }), 'plaintext')) as { insertText: string }[];
      assert.strictEqual(items[0].insertText, '2;');
      assert.strictEqual(posts(), 1);
    });

    it('a language not in opencode.inlineSuggestions.languages gets none; a named one does (purposeHooks.integration.test.ts: neither enters the request log)', async () => {
      ext().dispose();
      const only = activateAgainst(server(), { ...ON, 'inlineSuggestions.languages': ['typescript'] });
      try {
        assert.strictEqual(await suggestIn(double.Uri.file('/ws/a.py'), 'python'), undefined);
        assert.strictEqual(posts(), 0);
        server().enqueueReply({ text: '2;' });
        const items = (await suggestIn(double.Uri.file('/ws/a.ts'), 'typescript')) as { insertText: string }[];
        assert.strictEqual(items[0].insertText, '2;');
      } finally {
        only.dispose();
      }
    });
  });
});
