/**
 * Every route through the ENGINE over real HTTP (fake OpenCode server): the route chosen per request, the
 * native stream read by the one transport, usage in the [usage] line, tool round trips with the native
 * reasoning passed back across turns and across a restart, the wrong route corrected once and remembered,
 * and 20 concurrent requests across routes.
 */
import * as assert from 'assert';
import type { ChatMessage, StreamEvent } from '../core/types';
import type { WiredRoute } from './support/routeModels';
import { UserFacingError } from '../core/request/userFacingError';
import { OPENCODE_CLIENT } from '../core/request/chatTransport';
import { engineFor, MemoryStore } from './support/engineHarness';
import type { SentRecord } from '../core/replay/sentRecord';
import { useFakeServer } from './support/suiteHooks';
import { PATHS, ROUTE_MODEL, ROUTE_SETTING, ROUTES } from './support/routeModels';
import * as fs from 'fs';
import * as path from 'path';

const LIMITS = { contextWindow: 200_000, maxOutputTokens: 8_000 };
const TOOLS = [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 1_000 };

const text = (t: string): ChatMessage => ({ role: 'user', parts: [{ kind: 'text', text: t }] });

async function run(engine: ReturnType<typeof engineFor>['engine'], modelId: string, messages: ChatMessage[], tools = TOOLS) {
  const events: StreamEvent[] = [];
  const outcome = await engine.run({ purpose: 'conversation', modelId, messages, tools: tools.map((t) => ({ ...t })) }, LIMITS, (e) => events.push(e), new AbortController().signal);
  return { outcome, events, text: events.map((e) => (e.kind === 'text' ? e.text : '')).join(''), calls: events.filter((e) => e.kind === 'toolCall') };
}

describe('routes through the engine (real HTTP, fake OpenCode server)', () => {
  const server = useFakeServer();
  const at = (route: WiredRoute) => server().requests.filter((r) => r.path === PATHS[route]);

  it('sends x-opencode-client with the package version on every route', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    assert.strictEqual(OPENCODE_CLIENT, `vscode-opencode-chat-provider/${pkg.version}`);
  });

  for (const route of ROUTES) {
    it(`${route}: a plain answer on its route, its usage in the [usage] line and the usage event`, async () => {
      const { engine, log } = engineFor(`${server().url}`, ROUTE_SETTING, new MemoryStore(), fast);
      const answer = await run(engine, ROUTE_MODEL[route], [text('hello there')]);
      assert.match(answer.text, /^Answer 1 to: hello there/);
      assert.strictEqual(answer.outcome.truncated, false);
      assert.strictEqual(answer.outcome.prepared.route.id, route);
      assert.strictEqual(server().requests.length, 1, 'one request, straight to its route');
      const request = at(route)[0];
      assert.strictEqual(request.headers['x-opencode-client'], OPENCODE_CLIENT);
      const usage = answer.outcome.usage!;
      assert.ok(usage.contextTokens > 0);
      assert.deepStrictEqual(answer.events.filter((e) => e.kind === 'usage').map((e) => (e as { usage: unknown }).usage), [usage]);
      const usageLines = log.lines.filter((l) => l.message.startsWith('[usage]'));
      assert.strictEqual(usageLines.length, 1);
      assert.ok(usageLines[0].message.includes(`prompt=${usage.contextTokens}`), usageLines[0].message);
      assert.deepStrictEqual(log.lines.filter((l) => l.level === 'warn' || l.level === 'error'), []);
    });
  }

  it('gemini: a plain answer on /models/{id}:streamGenerateContent', async () => {
    const { engine, log } = engineFor(server().url, { models: { 'fake-native-gemini': { api: 'gemini' } } }, new MemoryStore(), fast);
    const answer = await run(engine, 'fake-native-gemini', [text('hello gemini')], []);
    assert.match(answer.text, /^Answer 1 to: hello gemini/);
    assert.strictEqual(server().requests.at(-1)?.path, '/v1/models/fake-native-gemini:streamGenerateContent');
    assert.ok(answer.outcome.usage!.contextTokens > 0);
    assert.strictEqual(log.lines.filter((l) => l.message.startsWith('[usage]')).length, 1);
  });

  it('usage per route: Messages counts input + cache read + cache write; Responses input_tokens with cached_tokens', async () => {
    const system: ChatMessage = { role: 'system', parts: [{ kind: 'text', text: 'You are careful. '.repeat(300) }] };
    for (const route of ['responses', 'messages'] as WiredRoute[]) {
      const { engine } = engineFor(server().url, ROUTE_SETTING, new MemoryStore(), fast);
      const first = await run(engine, ROUTE_MODEL[route], [system, text('first question')], []);
      const second = await run(engine, ROUTE_MODEL[route], [system, text('first question'), { role: 'assistant', parts: [{ kind: 'text', text: first.text }] }, text('second')], []);
      const u1 = first.outcome.usage!;
      const u2 = second.outcome.usage!;
      assert.strictEqual(u1.shape, route === 'messages' ? 'anthropic' : 'responses');
      assert.strictEqual(u1.cachedTokens, 0);
      assert.ok(u2.cachedTokens > 0 && u2.cachedTokens <= u2.contextTokens, `${route}: cached ${u2.cachedTokens} of ${u2.contextTokens}`);
      if (route === 'messages') {
        assert.strictEqual(u1.cacheWriteTokens, u1.contextTokens, 'the first request wrote all it sent');
        assert.strictEqual(u2.cachedTokens, u1.contextTokens, 'the second read exactly that');
      }
    }
  });

  for (const route of ['responses', 'messages'] as WiredRoute[]) {
    it(`${route}: tool round trip with the signed reasoning passed back, also after a restart (store reloaded)`, async () => {
      const store = new MemoryStore();
      const recorded: SentRecord[] = [];
      const { engine } = engineFor(server().url, ROUTE_SETTING, store, fast, { record: (_prepared, sent) => recorded.push(sent) });
      server().enqueueReply({ reasoning: 'Read a.ts first.', text: 'Reading.', toolCalls: [{ id: 'call_7', name: 'read', arguments: '{"path":"a.ts"}' }] });
      const first = await run(engine, ROUTE_MODEL[route], [text('what is in a.ts?')]);
      assert.deepStrictEqual(first.calls, [{ kind: 'toolCall', callId: 'call_7', name: 'read', input: { path: 'a.ts' } }]);
      assert.ok(store.values.has('opencode.nativeReplay.index') && store.values.has('opencode.nativeReplay.0'), 'the native items were persisted (in chunks)');
      const history: ChatMessage[] = [
        text('what is in a.ts?'),
        { role: 'assistant', parts: [{ kind: 'text', text: 'Reading.' }, { kind: 'toolCall', callId: 'call_7', name: 'read', input: { path: 'a.ts' } }] },
        { role: 'user', parts: [{ kind: 'toolResult', callId: 'call_7', text: 'export const a = 1;' }] },
      ];
      const marker = route === 'responses' ? '"encrypted_content"' : '"signature"';
      const second = await run(engine, ROUTE_MODEL[route], history);
      assert.match(second.text, /^Answer 1 to: what is in a.ts/);
      assert.ok(JSON.stringify(server().requests[1].body).includes(marker), 'the reasoning went back on the next turn');
      // The recording says what those items added to the call's message (for the report's replay).
      assert.strictEqual(recorded[0].native, undefined);
      const [tokens, bytes] = recorded[1].native?.call_7 ?? [0, 0];
      assert.ok(tokens > 0 && bytes > 0, JSON.stringify(recorded[1].native));
      // A restart: a new engine on the same store sends the same bytes (and the server verifies them).
      const restarted = engineFor(server().url, ROUTE_SETTING, store, fast).engine;
      const third = await run(restarted, ROUTE_MODEL[route], history);
      assert.match(third.text, /^Answer 1 to: what is in a.ts/);
      assert.strictEqual(JSON.stringify(server().requests[2].body), JSON.stringify(server().requests[1].body), 'same body after the restart');
    });
  }

  it('wrong route: the gateway\'s 401 ModelError moves the request silently, is learned once and persisted, one [route] line, no key error', async () => {
    const store = new MemoryStore();
    const { engine, log } = engineFor(server().url, {}, store, fast);
    const first = await run(engine, 'fake-messages', [text('hi')], []);
    assert.match(first.text, /^Answer 1 to: hi/);
    assert.deepStrictEqual(server().requests.map((r) => r.path), [PATHS.chat, PATHS.responses, PATHS.messages]);
    const routeLines = log.lines.filter((l) => l.message.startsWith('[route]'));
    assert.deepStrictEqual(routeLines.map((l) => [l.level, l.message]), [['info', '[route] model=fake-messages from=chat to=messages refused=oa-compat remembered']]);
    assert.deepStrictEqual(log.lines.filter((l) => l.level === 'warn' || l.level === 'error'), [], 'no retry, no key error');
    await run(engine, 'fake-messages', [text('hi'), { role: 'assistant', parts: [{ kind: 'text', text: first.text }] }, text('again')], []);
    assert.strictEqual(server().requests.at(-1)?.path, PATHS.messages);
    assert.strictEqual(server().requests.length, 4, 'learned: straight to /messages');
    const restarted = engineFor(server().url, {}, store, fast);
    await run(restarted.engine, 'fake-messages', [text('after restart')], []);
    assert.strictEqual(server().requests.length, 5, 'remembered across a restart');
    assert.deepStrictEqual(restarted.log.lines.filter((l) => l.message.startsWith('[route]')), []);
  });

  it('npm start\'s models all answer without a setting: the Gemini model is found after three refusals, said once', async () => {
    const { engine, log } = engineFor(server().url, {}, new MemoryStore(), fast);
    for (const model of ['fake-large', 'fake-responses', 'fake-messages', 'fake-native-gemini']) {
      const answer = await run(engine, model, [text(`hello ${model}`)], []);
      assert.match(answer.text, new RegExp(`^Answer 1 to: hello ${model}`));
    }
    assert.deepStrictEqual(log.lines.filter((l) => l.message.startsWith('[route]')).map((l) => l.message), [
      '[route] model=fake-responses from=chat to=responses refused=oa-compat remembered',
      '[route] model=fake-messages from=chat to=messages refused=oa-compat remembered',
      '[route] model=fake-native-gemini from=chat to=gemini refused=oa-compat remembered',
    ]);
    // Switched to from chat, the Gemini body is built as Gemini's rule says (it thinks unless the catalogue says not).
    const geminiBody = server().requests.find((r) => r.path.includes(':streamGenerateContent'))?.body as { generationConfig?: { thinkingConfig?: unknown } };
    assert.deepStrictEqual(geminiBody.generationConfig?.thinkingConfig, { includeThoughts: true });
  });

  it('a context-length 400 right after a wrong-route switch re-trims on the route that answered, not the refused one', async () => {
    const { engine, log } = engineFor(server().url, {}, new MemoryStore(), fast);
    server().enqueueFault({ name: 'context-length-400', limit: 150_000 });
    const answer = await run(engine, 'fake-messages', [text('long question')], []);
    assert.match(answer.text, /^Answer 1 to: long question/);
    assert.deepStrictEqual(server().requests.map((r) => r.path), [PATHS.chat, PATHS.responses, PATHS.messages, PATHS.messages], 'chat and Responses refused once each, then Messages twice');
    assert.strictEqual(log.lines.filter((l) => l.message.startsWith('[route]')).length, 1);
  });

  it('a setting that names the wrong route is corrected for the request, said once, and never becomes a key error', async () => {
    const { engine, log } = engineFor(server().url, { models: { 'fake-responses': { api: 'messages' } } }, new MemoryStore(), fast);
    const answer = await run(engine, 'fake-responses', [text('hi')], []);
    assert.match(answer.text, /^Answer 1 to: hi/);
    assert.match(log.lines.find((l) => l.message.startsWith('[route]'))!.message, /^\[route\] model=fake-responses from=messages to=responses refused=anthropic/);
  });

  it('a model no route serves ends in a sentence about the model, not the key', async () => {
    const { engine } = engineFor(server().url, {}, new MemoryStore(), fast);
    await assert.rejects(run(engine, 'not-a-model', [text('hi')], []), (e: unknown) => e instanceof UserFacingError && e.kind !== 'key');
  });

  it('20 concurrent requests across routes: each answer is its own, on its own route', async () => {
    // Not a timeout test: 20 streams at once on a loaded 2-core machine may pause longer than `fast`'s 1 s.
    const { engine } = engineFor(server().url, ROUTE_SETTING, new MemoryStore(), { ...fast, idleTimeoutMs: 20_000 });
    const jobs = Array.from({ length: 20 }, (_, i) => ROUTES[i % 3]);
    const answers = await Promise.all(jobs.map((route, i) => run(engine, ROUTE_MODEL[route], [text(`question ${i} for ${route}`)], [])));
    answers.forEach((answer, i) => {
      assert.match(answer.text, new RegExp(`^Answer 1 to: question ${i} for ${jobs[i]}`));
      assert.strictEqual(answer.outcome.prepared.route.id, jobs[i]);
      assert.ok(answer.outcome.usage!.contextTokens > 0);
    });
    for (const route of ROUTES) assert.strictEqual(at(route).length, jobs.filter((r) => r === route).length);
  });
});
