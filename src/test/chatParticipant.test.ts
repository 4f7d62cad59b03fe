/** The @opencode participant, driven through the shared vscode double against the fake server. */
import * as assert from 'assert';
import fc from 'fast-check';
import { composePrompt, omittedFooter, referenceName, typedFileMarkers } from '../core/participant/promptReferences';
import { historyToMessages, PARTICIPANT_ID } from '../vscode/chatParticipant';
import { SENT_TURN_FIELD } from '../core/participant/sentTurn';
import * as double from './support/vscodeDouble';
import { activateAgainst } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

describe('@opencode chat participant', () => {
  const server = useFakeServer();
  useActivated(server, activateAgainst);

  it('turns earlier turns into user and assistant messages, skipping empty ones', () => {
    const md = (text: string) => new double.ChatResponseMarkdownPart(new double.MarkdownString().appendMarkdown(text));
    const messages = historyToMessages([{ prompt: 'first question' }, { response: [md('first '), md('answer')] }, { prompt: '  ' }] as never);
    assert.deepStrictEqual(messages.map((m) => [m.role, (m.content[0] as double.LanguageModelTextPart).value]), [
      [1, 'first question'],
      [2, 'first answer'],
    ]);
  });

  it('streams the model answer as markdown and sends the chat history with the prompt', async () => {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant);
    server().enqueueReply({ text: 'Second **answer**.' });
    const streamed: string[] = [];
    const [model] = await double.lm.selectChatModels({ vendor: 'opencode' });
    const history = [{ prompt: 'hello' }, { response: [new double.ChatResponseMarkdownPart(new double.MarkdownString().appendMarkdown('Hi there.'))] }];
    await participant.handler({ prompt: 'and now?', model }, { history }, { markdown: (text: string) => streamed.push(text) }, new double.CancellationTokenSource().token);
    assert.strictEqual(streamed.join(''), 'Second **answer**.');
    const sent = server().requests.at(-1)?.body.messages;
    assert.deepStrictEqual(sent, [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'Hi there.' },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('a cut answer: the text that arrived stays shown and kept for the history, with the error beside it', async () => {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant);
    server().enqueueFault({ name: 'cut-after-text', afterChunks: 2 });
    const streamed: string[] = [];
    const [model] = await double.lm.selectChatModels({ vendor: 'opencode' });
    const result = await participant.handler({ prompt: 'cut me', model }, { history: [] }, { markdown: (md: { value?: string } | string) => streamed.push(typeof md === 'string' ? md : String(md.value)) }, new double.CancellationTokenSource().token);
    const shown = streamed.join('');
    assert.ok(shown.length > 0 && shown.length <= 16, `the first two chunks only: ${JSON.stringify(shown)}`);
    assert.doesNotMatch(shown, /cut off|failed/, 'no note and no failure text in the answer');
    assert.match(String(result.errorDetails?.message), /The answer from fake-large was cut off: the connection broke\./);
    const sent = (result.metadata as Record<string, { answer?: string }>)[SENT_TURN_FIELD];
    assert.strictEqual(sent.answer, shown, 'the kept text is what later turns send back');
  });

  it('participant-error-excerpt: a failure carrying an HTML page shows and logs a short redacted excerpt', async () => {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant);
    const page = `<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1>${'<p>upstream filler</p>\n'.repeat(300)} Bearer sk-PAGEKEY-abcdefghijkl</body></html>`;
    const model = { vendor: 'opencode', id: 'broken', sendRequest: async () => Promise.reject(new Error(page)) };
    const shown: string[] = [];
    const log = double.createdChannels.at(-1);
    assert.ok(log);
    const before = log.lines.length;
    await participant.handler({ prompt: 'hi', model }, { history: [] }, { markdown: (md: { value?: string } | string) => shown.push(typeof md === 'string' ? md : String(md.value)) }, new double.CancellationTokenSource().token);
    const logged = log.lines.slice(before).map((l) => l.message).join('\n');
    for (const [what, text] of [['chat', shown.join('')], ['log', logged]]) {
      assert.match(text, /502/, what);
      assert.ok(text.length < 1_000, `${what}: ${text.length} characters`);
      assert.doesNotMatch(text, /<p>|<html|PAGEKEY/, what);
    }
  });
});

describe('@opencode attachments', () => {
  const server = useFakeServer();
  useActivated(server, activateAgainst);

  it('sends a pasted-text attachment with the prompt, and says in the footer what it could not read', async () => {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant);
    server().enqueueReply({ text: 'Seen it.' });
    const [model] = await double.lm.selectChatModels({ vendor: 'opencode' });
    const prompt = 'what does #attachment:Pasted text #1 do?';
    const start = prompt.indexOf('#attachment');
    const references = [
      { id: 'vscode.paste', range: [start, start + '#attachment:Pasted text #1'.length], value: 'function PASTED_MARKER() { return 42; }' },
      { id: 'some.tool', value: { opaque: true }, modelDescription: 'A mystery' },
    ];
    const streamed: string[] = [];
    const result = await participant.handler({ prompt, model, references }, { history: [] }, { markdown: (text: string) => streamed.push(text) }, new double.CancellationTokenSource().token);
    const sent = server().requests.at(-1)?.body.messages as { role: string; content: string }[];
    const last = sent[sent.length - 1];
    assert.strictEqual(last.role, 'user');
    assert.ok(JSON.stringify(last.content).includes('function PASTED_MARKER() { return 42; }'), JSON.stringify(last.content));
    assert.ok(JSON.stringify(last.content).includes('Pasted text #1'));
    assert.ok(JSON.stringify(last.content).includes(prompt));
    const text = streamed.join('');
    assert.ok(text.startsWith('Seen it.'));
    assert.ok(text.includes('Not included in full: A mystery (a kind of reference @opencode cannot read)'), text);

    // The next turn sends that turn again exactly as it went (prefix cache), and not the quiet footer.
    server().enqueueReply({ text: 'Second.' });
    const md = new double.ChatResponseMarkdownPart(new double.MarkdownString().appendMarkdown(text));
    const history = [{ prompt, references }, { response: [md], result }];
    await participant.handler({ prompt: 'and then?', model, references: [] }, { history }, { markdown: () => undefined }, new double.CancellationTokenSource().token);
    const again = server().requests.at(-1)?.body.messages as { role: string; content: unknown }[];
    assert.deepStrictEqual(again[0], last);
    assert.deepStrictEqual(again[1], { role: 'assistant', content: 'Seen it.' });
  });
});

describe('composePrompt (pure)', () => {
  it('puts attachments before the prompt, cuts what does not fit, and leaves images out for text-only models', () => {
    const big = 'word '.repeat(5_000);
    const image = { kind: 'image' as const, name: 'shot.png', mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) };
    const composed = composePrompt('explain', [{ kind: 'text', name: 'a.ts', text: 'small' }, { kind: 'text', name: 'big.txt', text: big }, image], { maxTokens: 1_000, imageInput: false });
    assert.strictEqual(composed.parts.length, 3);
    assert.deepStrictEqual(composed.parts[2], { kind: 'text', text: 'explain' });
    assert.ok(composed.parts[0].kind === 'text' && composed.parts[0].text === '<attachment name="a.ts">\nsmall\n</attachment>');
    assert.ok(composed.parts[1].kind === 'text' && composed.parts[1].text.length < big.length && composed.parts[1].text.includes('was cut'));
    assert.deepStrictEqual(composed.notes.map((n) => n.split(' (')[0]), ['big.txt', 'shot.png']);
    const vision = composePrompt('look', [image], { maxTokens: 10, imageInput: true });
    assert.deepStrictEqual(vision.parts[0], { kind: 'image', mimeType: 'image/png', data: image.data });
    assert.strictEqual(omittedFooter(vision.notes), undefined);
  });

  it('typed-file-property: each typed #file: marker slices to its path, in order, and never overlaps a reference', () => {
    const word = fc.oneof(fc.constantFrom('#file:a.ts', '#file:src/b.md.', '#file:', 'see', '#file:x,', '#filex'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 10 }), fc.array(fc.tuple(fc.nat(80), fc.nat(12)), { maxLength: 3 }), (words, spans) => {
        const prompt = words.join(' ');
        const covered = spans.map(([a, len]) => [a, a + len] as [number, number]);
        const markers = typedFileMarkers(prompt, covered);
        let last = -1;
        for (const { path, range } of markers) {
          assert.strictEqual(prompt.slice(range[0], range[1]), `#file:${path}`);
          assert.ok(path.length > 0 && !/[\s]/.test(path) && !/[.,;:!?)]$/.test(path), path);
          assert.ok(range[0] > last);
          last = range[0];
          assert.ok(!covered.some(([a, b]) => range[0] < b && a < range[1]));
        }
      }),
    );
    assert.deepStrictEqual(typedFileMarkers('read #file:src/a.ts. Then #file:b.md', []), [{ path: 'src/a.ts', range: [5, 19] }, { path: 'b.md', range: [26, 36] }]);
  });

  it('names a reference by its marker in the prompt', () => {
    assert.strictEqual(referenceName('see #file:src/a.ts now', [4, 18], 'x'), 'src/a.ts');
    assert.strictEqual(referenceName('see #selection', [4, 14], 'x'), 'selection');
    assert.strictEqual(referenceName('p', undefined, 'fallback'), 'fallback');
  });
});
