/** Every route over real HTTP against the fake OpenCode server, using the route modules directly. */
import * as assert from 'assert';
import { APIError } from 'openai';
import { classifyOpenCodeError } from '../core/routes/select/openCodeErrors';
import { NativeReplayMemory } from '../core/answer/nativeReplay';
import type { RouteId } from '../core/routeId';
import type { BodyInput } from '../core/routes/route';
import type { WireMessage } from '../core/wire/wireTypes';
import { useFakeServer } from './support/suiteHooks';
import { askRoute, rejection } from './support/routeClient';
import { callsOf, lastUsage, textOf } from './support/routeHarness';
import { nextRoute } from '../core/models/modelTable';

const MODEL: Record<RouteId, string> = { chat: 'fake-large', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' };
const NATIVE: RouteId[] = ['responses', 'messages'];
const SYSTEM = 'You are a careful assistant. '.repeat(200);

const input = (route: RouteId, messages: WireMessage[], extra: Partial<BodyInput> = {}): BodyInput => ({
  modelId: MODEL[route], messages, tools: [{ type: 'function', function: { name: 'read', description: 'read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }],
  sessionId: `ses_${route}`, maxOutputTokens: 8000, reasons: route === 'responses', ...extra,
});

describe('routes over HTTP (fake OpenCode server)', () => {
  const server = useFakeServer({ requireKey: 'sk-test' });

  /** Where each route puts the key; every other key header stays absent. */
  const KEY_HEADER: Record<RouteId, string> = { chat: 'authorization', responses: 'authorization', messages: 'x-api-key', gemini: 'x-goog-api-key' };
  const PATH: Record<RouteId, string> = { chat: '/v1/chat/completions', responses: '/v1/responses', messages: '/v1/messages', gemini: `/v1/models/${MODEL.gemini}:streamGenerateContent` };

  for (const route of ['chat', 'responses', 'messages', 'gemini'] as RouteId[]) {
    it(`${route}: a plain answer with usage, the key where the route reads it, and the OpenCode headers`, async () => {
      const answer = await askRoute(server().url, route, input(route, [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }]));
      assert.match(textOf(answer.events, 'text'), /^Answer 1 to: hello there/);
      assert.ok((lastUsage(answer.events)?.contextTokens ?? 0) > 0);
      assert.strictEqual(answer.result.ended, true);
      const request = server().requests[0];
      assert.strictEqual(request.path, PATH[route]);
      assert.strictEqual(request.headers['x-opencode-session'], `ses_${route}`);
      assert.strictEqual(request.headers['x-opencode-client'], 'test/1');
      for (const header of new Set(Object.values(KEY_HEADER))) {
        const expected = header !== KEY_HEADER[route] ? undefined : header === 'authorization' ? 'Bearer sk-test' : 'sk-test';
        assert.strictEqual(request.headers[header], expected, `${header} on ${route}`);
      }
    });
  }

  it('/messages reads only x-api-key: a Bearer-only request is refused as a missing key', async () => {
    const response = await fetch(`${server().url}/messages`, { method: 'POST', headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'fake-messages', max_tokens: 10, messages: [] }) });
    assert.strictEqual(response.status, 401);
    assert.strictEqual(classifyOpenCodeError(401, await response.json())?.kind, 'auth');
  });

  for (const route of NATIVE) {
    it(`${route}: tool round trip — call id preserved, result paired, signed reasoning passed back and verified`, async () => {
      server().enqueueReply({ reasoning: 'I should read a.ts first.', text: 'Reading.', toolCalls: [{ id: 'call_7', name: 'read', arguments: '{"path":"a.ts"}' }] });
      const history: WireMessage[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'what is in a.ts?' }];
      const first = await askRoute(server().url, route, input(route, history));
      assert.deepStrictEqual(callsOf(first.events), [{ callId: 'call_7', name: 'read', input: { path: 'a.ts' } }]);
      assert.strictEqual(textOf(first.events, 'thinking'), 'I should read a.ts first.');
      const memory = new NativeReplayMemory();
      assert.ok(memory.remember(first.layout));
      const restored = NativeReplayMemory.fromJSON(JSON.parse(JSON.stringify(memory))); // kept across a restart
      history.push({ role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] });
      history.push({ role: 'tool', tool_call_id: 'call_7', content: 'export const a = 1;' });
      const second = await askRoute(server().url, route, input(route, history, { replay: restored }));
      assert.match(textOf(second.events, 'text'), /^Answer 1 to: what is in a.ts/);
      const sent = JSON.stringify(server().requests[1].body);
      assert.ok(sent.includes(route === 'responses' ? '"encrypted_content"' : '"signature"'), 'the reasoning went back');
      // The server checks what comes back: a tampered reasoning item is refused, so this test can fail.
      const tampered = JSON.parse(JSON.stringify(first.layout).replace(/(enc_|sig_)/, '$1x'));
      const bad = new NativeReplayMemory();
      bad.remember(tampered);
      const error = await rejection(askRoute(server().url, route, input(route, history, { replay: bad })));
      assert.strictEqual(error.status, 400);
    });
  }

  it('wrong route: the 401 ModelError is parsed as "wrong route" and the next route is found without a key error', async () => {
    const messages: WireMessage[] = [{ role: 'user', content: 'hi' }];
    const tried: RouteId[] = [];
    let route: RouteId | undefined = 'chat';
    let answer;
    while (route && !answer) {
      try {
        answer = await askRoute(server().url, route, { ...input(route, messages), modelId: 'fake-messages' });
      } catch (error) {
        assert.ok(error instanceof APIError && error.status === 401);
        const classified = classifyOpenCodeError(error.status, error.error);
        assert.strictEqual(classified?.kind, 'wrong-route');
        assert.strictEqual(classified?.refusedRoute, route);
        tried.push(route);
        route = nextRoute('fake-messages', route, tried);
      }
    }
    assert.deepStrictEqual(tried, ['chat', 'responses']);
    assert.strictEqual(route, 'messages');
    assert.match(textOf(answer!.events, 'text'), /^Answer 1 to: hi/);
  });

  for (const route of NATIVE) {
    it(`${route}: the second turn reads the first turn's prompt from the cache`, async () => {
      const history: WireMessage[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'first question' }];
      const first = await askRoute(server().url, route, input(route, history));
      const firstUsage = lastUsage(first.events)!;
      assert.strictEqual(firstUsage.cachedTokens, 0);
      history.push({ role: 'assistant', content: textOf(first.events, 'text') }, { role: 'user', content: 'second question' });
      const second = lastUsage((await askRoute(server().url, route, input(route, history))).events)!;
      assert.ok(second.cachedTokens >= firstUsage.contextTokens - 64, `cached ${second.cachedTokens} of the first turn's ${firstUsage.contextTokens}`);
      if (route === 'messages') {
        assert.strictEqual(firstUsage.cacheWriteTokens, firstUsage.contextTokens, 'the first request wrote everything it sent');
        assert.strictEqual(second.cachedTokens, firstUsage.contextTokens, 'and the second read exactly that');
      }
    });
  }

  it('messages: without breakpoints nothing is cached; a fifth breakpoint is Anthropic\'s 400', async () => {
    const send = async (body: object) => fetch(`${server().url}/messages`, { method: 'POST', headers: { 'x-api-key': 'sk-test', 'x-opencode-session': 's', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const messages = [{ role: 'user', content: [{ type: 'text', text: SYSTEM }] }];
    for (let i = 0; i < 2; i++) {
      const text = await (await send({ model: 'fake-messages', max_tokens: 100, stream: true, messages })).text();
      assert.match(text, /"cache_read_input_tokens":0/);
    }
    const marked = Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `b${i}`, cache_control: { type: 'ephemeral' } }));
    const refused = await send({ model: 'fake-messages', max_tokens: 100, messages: [{ role: 'user', content: marked }] });
    assert.strictEqual(refused.status, 400);
    assert.match(JSON.stringify(await refused.json()), /A maximum of 4 blocks with cache_control may be provided. Found 5./);
  });

  it('20 concurrent requests across the three routes each get their own answer', async () => {
    const routes: RouteId[] = ['chat', 'responses', 'messages'];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const route = routes[i % 3];
        return askRoute(server().url, route, { ...input(route, [{ role: 'user', content: `question number ${i}` }]), sessionId: `ses_${i}` }).then((a) => ({ i, route, a }));
      }),
    );
    for (const { i, a } of answers) {
      assert.match(textOf(a.events, 'text'), new RegExp(`^Answer 1 to: question number ${i}\\b`));
      assert.strictEqual(a.result.ended, true);
    }
    assert.strictEqual(server().requests.length, 20);
  });
});
