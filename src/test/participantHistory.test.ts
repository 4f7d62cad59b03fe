/**
 * Earlier `@opencode` turns go again byte for byte as they were sent, on every route and after a restart of the
 * window, with the history shaped as the real VS Code hands it over (chatView.ts): the history's copy of a turn has
 * other reference ids, no ranges and no hidden "Chat customizations index". The conversation id never changes.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import type { RecordedRequest } from '../fakeServer/types';
import { SENT_TURN_FIELD, sentTurnOf, sentTurnRecord } from '../core/participant/sentTurn';
import { historyToMessages } from '../vscode/chatParticipant';
import * as double from './support/vscodeDouble';
import { activateAgainst, type ActivatedExtension } from './support/activatedExtension';
import { ChatView, customizationsIndex, withMarkers, type ChatReference } from './support/chatView';
import { useFakeServer } from './support/suiteHooks';
import { runs } from './support/propertyRuns';

const ROUTE_MODELS = { chat: 'fake-large', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' } as const;
type Route = keyof typeof ROUTE_MODELS;
const ROUTES = Object.keys(ROUTE_MODELS) as Route[];
// No describing model: every request here is a turn of the conversation (images for text-only models: imageDescribe.*.test.ts).
const SETTINGS = { 'imageDescription.model': 'none', models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } } };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** The route's user items in order, cache markers left out (Messages moves its breakpoint every turn). */
function userItems(route: Route, request: RecordedRequest): string[] {
  const items = (route === 'responses' ? request.body.input : route === 'gemini' ? request.body.contents : request.body.messages) as { role?: string }[];
  return items.filter((item) => item.role === 'user').map((item) => JSON.stringify(item, (key, value) => (key === 'cache_control' ? undefined : value)));
}

function conversationIds(route: Route, requests: readonly RecordedRequest[]): Set<unknown> {
  return new Set(requests.flatMap((r) => [r.headers['x-opencode-session'], ...(route === 'responses' ? [r.body.prompt_cache_key] : [])]));
}

async function modelFor(id: string): Promise<unknown> {
  const model = (await double.lm.selectChatModels({ vendor: 'opencode' })).find((m) => m.id === id);
  assert.ok(model, id);
  return model;
}

/** Request j's k-th user item is byte for byte request k's own last user item, for every k < j. */
function assertSentAsSent(route: Route, requests: readonly RecordedRequest[]): void {
  const own = requests.map((r) => userItems(route, r).at(-1));
  requests.forEach((request, j) => {
    const items = userItems(route, request);
    assert.strictEqual(items.length, j + 1, `request ${j} carries every user turn`);
    for (let k = 0; k < j; k++) assert.strictEqual(items[k], own[k], `${route}: request ${j} re-sends turn ${k} as it went`);
  });
}

describe('@opencode history: earlier turns exactly as sent', function () {
  this.timeout(120_000);
  const server = useFakeServer();
  let ext: ActivatedExtension | undefined;
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-history-'));
    ext = activateAgainst(server(), SETTINGS);
  });
  afterEach(() => {
    ext?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, content: string | Buffer): unknown => {
    const full = path.join(dir, name);
    fs.writeFileSync(full, content);
    return double.Uri.file(full);
  };

  for (const route of ROUTES) {
    it(`${route}: a paste, a file and the hidden index go again as sent; one conversation id; also after a restart`, async () => {
      const view = new ChatView();
      const model = await modelFor(ROUTE_MODELS[route]);
      const paste = withMarkers('Summarise', [{ marker: '#attachment:Pasted text #1', value: 'PASTED_LINE one\nPASTED_LINE two', id: 'vscode.paste' }]);
      const withFile = withMarkers('And explain', [{ marker: '#file:util.ts', value: file('util.ts', 'export const FILE_MARKER = 7;\n') }]);
      const turns = [
        { prompt: 'Hello', hidden: [customizationsIndex('<skills>index of turn 1</skills>')] },
        { ...paste, hidden: [customizationsIndex('<skills>index of turn 2</skills>')] },
        { ...withFile, hidden: [customizationsIndex('<skills>index of turn 3</skills>')] },
      ];
      for (const [i, turn] of turns.entries()) {
        server().enqueueReply({ text: `Answer ${i + 1}.` });
        await view.send(model, turn);
      }
      // A restart of the window: a new extension host on the same stored state, the history as VS Code stored it.
      const stored = ext!.context.globalState;
      ext!.dispose();
      ext = activateAgainst(server(), SETTINGS, stored);
      server().enqueueReply({ text: 'Answer 4.' });
      await view.send(await modelFor(ROUTE_MODELS[route]), { prompt: 'One more', hidden: [customizationsIndex('<skills>index of turn 4</skills>')] });

      const requests = server().requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/models'));
      assert.strictEqual(requests.length, 4);
      assertSentAsSent(route, requests);
      assert.strictEqual(conversationIds(route, requests).size, 1, [...conversationIds(route, requests)].join(', '));
      const last = JSON.stringify(requests[3].body);
      for (const marker of ['PASTED_LINE two', 'FILE_MARKER = 7', 'index of turn 1', 'index of turn 3']) assert.ok(last.includes(marker), marker);
      assert.ok(!last.includes('history:vscode'), 'the history copy of the references is not what goes');
    });
  }

  it('sent-turn-property: on every route, request j re-sends each earlier turn k byte for byte as turn k sent it', async () => {
    const refArb = fc.oneof(
      fc.record({ kind: fc.constant('paste' as const), text: fc.string({ minLength: 1, maxLength: 80 }) }),
      fc.record({ kind: fc.constant('file' as const), text: fc.string({ maxLength: 80 }) }),
      fc.record({ kind: fc.constant('image' as const) }),
    );
    const turnArb = fc.record({ words: fc.string({ minLength: 1, maxLength: 30 }), refs: fc.array(refArb, { maxLength: 3 }), index: fc.string({ maxLength: 40 }) });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.array(turnArb, { minLength: 2, maxLength: 5 }), async (route, turns) => {
        server().reset();
        const view = new ChatView();
        const model = await modelFor(ROUTE_MODELS[route]);
        for (const [t, turn] of turns.entries()) {
          const refs = turn.refs.map((ref, r) => {
            const name = `n${n++}`;
            if (ref.kind === 'paste') return { marker: `#attachment:Pasted text #${r + 1}`, value: ref.text, id: 'vscode.paste' };
            if (ref.kind === 'file') return { marker: `#file:${name}.txt`, value: file(`${name}.txt`, ref.text) };
            return { marker: `#file:${name}.png`, value: file(`${name}.png`, PNG) };
          });
          const { prompt, references } = withMarkers(turn.words, refs);
          const hidden: ChatReference[] = [customizationsIndex(`<skills>${t}:${turn.index}</skills>`)];
          server().enqueueReply({ text: `answer ${t}` });
          await view.send(model, { prompt, references, hidden });
        }
        const requests = server().requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/models'));
        assert.strictEqual(requests.length, turns.length);
        assertSentAsSent(route, requests);
        assert.strictEqual(conversationIds(route, requests).size, 1);
      }),
      { numRuns: runs(24) },
    );
  });
});

describe('sent turn records (pure)', () => {
  it('round-trip through JSON, images included; malformed metadata gives nothing (the prompt alone goes)', () => {
    const turn = { parts: [{ kind: 'text' as const, text: '<attachment name="a">x</attachment>' }, { kind: 'image' as const, mimeType: 'image/png', data: new Uint8Array(PNG) }, { kind: 'text' as const, text: 'prompt' }], answer: 'yes' };
    const metadata = JSON.parse(JSON.stringify({ model: 'm', [SENT_TURN_FIELD]: sentTurnRecord(turn) }));
    assert.deepStrictEqual(sentTurnOf(metadata), turn);
    const { answer: _answer, ...failed } = turn;
    assert.deepStrictEqual(sentTurnOf({ [SENT_TURN_FIELD]: sentTurnRecord(failed) }), failed);
    for (const bad of [undefined, null, 'x', {}, { [SENT_TURN_FIELD]: { v: 2, parts: [{ text: 'a' }] } }, { [SENT_TURN_FIELD]: { v: 1, parts: [] } }, { [SENT_TURN_FIELD]: { v: 1, parts: [{ nope: 1 }] } }, { [SENT_TURN_FIELD]: { v: 1, parts: [{ text: 'a' }], answer: 3 } }]) {
      assert.strictEqual(sentTurnOf(bad), undefined, JSON.stringify(bad));
    }
  });

  it('a failed turn goes as its user message without the error text; a turn without a record as prompt and markdown', () => {
    const md = (text: string) => new double.ChatResponseMarkdownPart(new double.MarkdownString().appendMarkdown(text));
    const failed = { metadata: { [SENT_TURN_FIELD]: sentTurnRecord({ parts: [{ kind: 'text', text: 'as sent' }] }) } };
    const messages = historyToMessages([
      { prompt: 'typed' },
      { response: [md('**OpenCode request failed.**')], result: failed },
      { prompt: 'older' },
      { response: [md('old answer\n\n---\n_a footer_')], result: {} },
    ] as never);
    assert.deepStrictEqual(messages.map((m) => [m.role, (m.content as double.LanguageModelTextPart[]).map((p) => p.value).join('')]), [
      [1, 'as sent'],
      [1, 'older'],
      [2, 'old answer'],
    ]);
  });
});
