/**
 * The model table and OpenCode's client rules over real HTTP (fake server): every snapshot id gets its route and
 * limits behind `/zen/v1` and `/zen/go/v1` (ids-only `/models`); a GPT model in no table completes a reasoning +
 * tool round trip on Responses under store:false, also behind a base URL that is not opencode.ai; our User-Agent on
 * every route; a pinned route the gateway refuses costs one refusal per activation and one notification.
 */
import * as assert from 'assert';
import { SNAPSHOT } from '../core/models/data/snapshot';
import { parseModelList } from '../core/models/parseModelList';
import { fetchModelList, setHostVersion, userAgent } from '../core/request/chatTransport';
import type { ChatMessage, StreamEvent } from '../core/types';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { resolveEntry } from '../core/models/modelTable';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 10_000 };
const TOOLS = [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const text = (t: string): ChatMessage => ({ role: 'user', parts: [{ kind: 'text', text: t }] });
const PATHS = { chat: '/chat/completions', responses: '/responses', messages: '/messages', gemini: ':streamGenerateContent' } as const;
const mounted = (url: string, catalog: 'zen' | 'go') => url.replace(/\/v1$/, catalog === 'zen' ? '/zen/v1' : '/zen/go/v1');

describe('model table over real HTTP (fake OpenCode server)', () => {
  const server = useFakeServer({
    models: [
      { id: 'gpt-7-nova', contextWindow: 400_000, maxOutputTokens: 64_000, toolCalling: true, api: 'responses', reasons: true },
      // No table and no family knows it: nothing says it reasons, and it does.
      { id: 'nova-7', contextWindow: 400_000, maxOutputTokens: 64_000, toolCalling: true, api: 'responses', reasons: true },
      { id: 'fake-large', contextWindow: 1_000_000, maxOutputTokens: 32_000, toolCalling: true },
      { id: 'fake-responses', contextWindow: 400_000, maxOutputTokens: 64_000, toolCalling: true, api: 'responses' },
      { id: 'fake-messages', contextWindow: 200_000, maxOutputTokens: 64_000, toolCalling: true, api: 'messages', reasons: true },
      { id: 'fake-native-gemini', contextWindow: 1_048_576, maxOutputTokens: 65_536, toolCalling: true, api: 'gemini', reasons: true },
    ],
  });

  for (const catalog of ['zen', 'go'] as const) {
    it(`${catalog}: every snapshot id gets its route (no refusal) and its window from an ids-only /models`, async () => {
      const url = mounted(server().url, catalog);
      const { engine } = engineFor(url, { endpointCatalog: catalog }, new MemoryStore(), fast);
      const listed = parseModelList(await fetchModelList({ baseUrl: url, apiKey: undefined }));
      const ids = Object.keys(SNAPSHOT[catalog]);
      for (const id of ids) assert.ok(listed.some((m) => m.id === id), `${id} listed`);
      for (const id of ids) {
        const model = listed.find((m) => m.id === id)!;
        assert.strictEqual(model.contextWindow, undefined, 'OpenCode lists ids only');
        const { entry } = resolveEntry(model, { catalog });
        assert.strictEqual(entry.contextWindow, SNAPSHOT[catalog][id].contextWindow, id);
        const before = server().requests.length;
        const events: StreamEvent[] = [];
        await engine.run({ purpose: 'conversation', modelId: id, messages: [text(`hello ${id}`)], tools: [] }, entry, (e) => events.push(e), new AbortController().signal);
        const sent = server().requests.slice(before);
        assert.strictEqual(sent.length, 1, `${id}: straight to its route`);
        assert.ok(sent[0].path.endsWith(PATHS[SNAPSHOT[catalog][id].route]), `${id}: ${sent[0].path}`);
        assert.ok(sent[0].path.startsWith(catalog === 'zen' ? '/zen/v1/' : '/zen/go/v1/'));
        assert.ok(events.some((e) => e.kind === 'text'), `${id} answered`);
      }
    });
  }

  for (const [modelId, where] of [['gpt-7-nova', 'custom'], ['gpt-7-nova', 'zen'], ['nova-7', 'custom'], ['nova-7', 'zen']] as const) {
    it(`${modelId}, in no table: reasoning + tool round trip on Responses under store:false (${where === 'custom' ? 'a base URL that is not opencode.ai' : 'behind /zen/v1'})`, async () => {
      const url = where === 'custom' ? server().url : mounted(server().url, 'zen');
      const { engine } = engineFor(url, where === 'custom' ? {} : { endpointCatalog: 'zen' }, new MemoryStore(), fast);
      const limits = { contextWindow: 400_000, maxOutputTokens: 64_000 };
      server().enqueueReply({ reasoning: 'I should read a.ts first.', text: 'Reading.', toolCalls: [{ id: 'call_9', name: 'read', arguments: '{"path":"a.ts"}' }] });
      const history: ChatMessage[] = [text('what is in a.ts?')];
      const first: StreamEvent[] = [];
      await engine.run({ purpose: 'conversation', modelId, messages: history, tools: TOOLS }, limits, (e) => first.push(e), new AbortController().signal);
      assert.ok(first.some((e) => e.kind === 'toolCall'), 'the model called the tool');
      const firstRequests = server().requests.length;
      const family = modelId.startsWith('gpt-');
      assert.strictEqual(firstRequests, where === 'zen' && family ? 1 : 2, 'at most one wrong-format refusal (chat first where no data or family says otherwise)');
      history.push({ role: 'assistant', parts: [{ kind: 'text', text: 'Reading.' }, { kind: 'toolCall', callId: 'call_9', name: 'read', input: { path: 'a.ts' } }] });
      history.push({ role: 'user', parts: [{ kind: 'toolResult', callId: 'call_9', text: 'export const a = 1;' }] });
      const second: StreamEvent[] = [];
      await engine.run({ purpose: 'conversation', modelId, messages: history, tools: TOOLS }, limits, (e) => second.push(e), new AbortController().signal);
      assert.ok(second.some((e) => e.kind === 'text'), 'the second turn answered (the server verified the passed-back reasoning)');
      const responses = server().requests.filter((r) => r.path.endsWith('/responses'));
      for (const r of responses) {
        assert.strictEqual(r.body.store, false);
        assert.deepStrictEqual(r.body.include, ['reasoning.encrypted_content']);
      }
      const passedBack = JSON.stringify(responses.at(-1)!.body.input);
      assert.match(passedBack, /"type":"reasoning".*"encrypted_content":"enc_/, 'the reasoning went back with its encrypted content');
    });
  }

  it('the fake refuses a reasoning item without its encrypted content with OpenAI\'s words', async () => {
    const response = await fetch(`${server().url}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-7-nova', store: false, input: [{ type: 'reasoning', id: 'rs_1', summary: [] }, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] }),
    });
    assert.strictEqual(response.status, 400);
    assert.match(JSON.stringify(await response.json()), /Item with id 'rs_1' not found\. Items are not persisted when `store` is set to false/);
  });

  it('every request on all four routes carries the extension\'s own User-Agent, never the SDK\'s', async () => {
    setHostVersion('1.139.0');
    assert.strictEqual(userAgent(), 'opencode-chat-provider/0.1.0 VSCode/1.139.0');
    const { engine } = engineFor(server().url, { models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } } }, new MemoryStore(), fast);
    for (const id of ['fake-large', 'fake-responses', 'fake-messages', 'fake-native-gemini']) {
      await engine.run({ purpose: 'conversation', modelId: id, messages: [text('hi')], tools: [] }, { contextWindow: 200_000, maxOutputTokens: 8_000 }, () => undefined, new AbortController().signal);
    }
    await fetchModelList({ baseUrl: server().url, apiKey: undefined });
    const paths = server().requests.map((r) => r.path);
    for (const path of Object.values(PATHS)) assert.ok(paths.some((p) => p.endsWith(path)), `${path} was called`);
    for (const r of server().requests) assert.strictEqual(r.headers['user-agent'], 'opencode-chat-provider/0.1.0 VSCode/1.139.0', r.path);
  });

  it('a pinned route the gateway refuses: one refusal per activation, the route that answers from then on, one notification', async () => {
    const notices: string[] = [];
    const { engine, log } = engineFor(server().url, { models: { 'fake-messages': { api: 'responses' } } }, new MemoryStore(), fast, { notify: (m) => notices.push(m) });
    for (let i = 0; i < 3; i++) {
      await engine.run({ purpose: 'conversation', modelId: 'fake-messages', messages: [text(`hi ${i}`)], tools: [] }, { contextWindow: 200_000, maxOutputTokens: 8_000 }, () => undefined, new AbortController().signal);
    }
    // First request: the pinned route, then the others in order until one answers; after that, straight there.
    assert.deepStrictEqual(server().requests.map((r) => r.path), ['/v1/responses', '/v1/chat/completions', '/v1/messages', '/v1/messages', '/v1/messages']);
    assert.strictEqual(notices.length, 1);
    assert.match(notices[0], /opencode\.models\["fake-messages"\]\.api is "responses".*answered on "messages"/);
    const routeLines = log.lines.filter((l) => l.message.startsWith('[route]')).map((l) => l.message);
    assert.deepStrictEqual(routeLines, ['[route] model=fake-messages from=responses to=messages refused=openai setting=opencode.models.api (using messages for this session)']);
  });
});
