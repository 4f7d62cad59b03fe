/** The Gemini route over real HTTP against the fake OpenCode server's `/models/{id}:streamGenerateContent`. */
import * as assert from 'assert';
import { APIError } from 'openai';
import { NativeReplayMemory } from '../core/answer/nativeReplay';
import { effortFields, mergeEffort } from '../core/routes/effort';
import { buildGeminiBody } from '../core/routes/gemini/geminiBody';
import { classifyOpenCodeError } from '../core/routes/select/openCodeErrors';
import type { BodyInput } from '../core/routes/route';
import type { WireMessage } from '../core/wire/wireTypes';
import type { FaultSpec } from '../fakeServer';
import { useFakeServer } from './support/suiteHooks';
import { askRoute, rejection } from './support/routeClient';
import { callsOf, lastUsage, textOf } from './support/routeHarness';
import { type EffortSubject } from '../core/routes/select/reasoningControl';

const MODEL = 'fake-native-gemini';
const SYSTEM = 'You are a careful assistant. '.repeat(200);
const input = (messages: WireMessage[], extra: Partial<BodyInput> = {}): BodyInput => ({
  modelId: MODEL, messages, sessionId: 'ses_gemini', maxOutputTokens: 8000, reasons: true,
  tools: [{ type: 'function', function: { name: 'read', description: 'read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }],
  ...extra,
});

describe('routes over HTTP: Gemini (fake OpenCode server)', () => {
  const server = useFakeServer({ requireKey: 'sk-test' });

  it('a plain answer: path with the model, key in x-goog-api-key (no Bearer), usage, complete, cost frame ignored', async () => {
    const answer = await askRoute(server().url, 'gemini', input([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }]));
    assert.match(textOf(answer.events, 'text'), /^Answer 1 to: hello there/);
    assert.strictEqual(answer.result.ended, true);
    assert.strictEqual(answer.result.finishReason, 'stop');
    assert.ok((lastUsage(answer.events)?.contextTokens ?? 0) > 0);
    const request = server().requests[0];
    assert.strictEqual(request.path, `/v1/models/${MODEL}:streamGenerateContent`);
    assert.strictEqual(request.headers['x-goog-api-key'], 'sk-test');
    assert.strictEqual(request.headers.authorization, undefined);
    assert.strictEqual(request.headers['x-opencode-session'], 'ses_gemini');
  });

  it('tool round trip: synthesized call id, signature remembered across a restart and checked by the server; a lost one is the 400', async () => {
    server().enqueueReply({ reasoning: 'Read a.ts first.', text: 'Reading.', toolCalls: [{ name: 'read', arguments: '{"path":"a.ts"}' }] });
    const history: WireMessage[] = [{ role: 'user', content: 'what is in a.ts?' }];
    const first = await askRoute(server().url, 'gemini', input(history));
    const [call] = callsOf(first.events);
    assert.deepStrictEqual({ name: call.name, input: call.input }, { name: 'read', input: { path: 'a.ts' } });
    assert.match(call.callId, /^call_gm_/);
    assert.strictEqual(textOf(first.events, 'thinking'), 'Read a.ts first.');
    assert.strictEqual(first.result.finishReason, 'tool_calls');
    const memory = new NativeReplayMemory();
    assert.ok(memory.remember(first.layout));
    const restored = NativeReplayMemory.fromJSON(JSON.parse(JSON.stringify(memory)));
    history.push({ role: 'assistant', content: 'Reading.', tool_calls: [{ id: call.callId, type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] });
    history.push({ role: 'tool', tool_call_id: call.callId, content: 'export const a = 1;' });
    const second = await askRoute(server().url, 'gemini', input(history, { replay: restored }));
    assert.match(textOf(second.events, 'text'), /^Answer 1 to: what is in a.ts/);
    assert.ok(JSON.stringify(server().requests[1].body).includes('"thoughtSignature":"gsig_'));
    // Without the memory, a thinking model's call goes with Gemini's documented stand-in, which is accepted...
    await askRoute(server().url, 'gemini', input(history));
    assert.ok(JSON.stringify(server().requests[2].body).includes('"thoughtSignature":"skip_thought_signature_validator"'));
    // ...and a call sent with no signature at all is Gemini's 400.
    const missing = await rejection(askRoute(server().url, 'gemini', input(history, { reasons: false })));
    assert.strictEqual(missing.status, 400);
    assert.match(missing.message, /missing a thought_signature/);
    const tampered = NativeReplayMemory.fromJSON(JSON.parse(JSON.stringify(memory).replace('gsig_', 'gsig_x')));
    assert.strictEqual((await rejection(askRoute(server().url, 'gemini', input(history, { replay: tampered })))).status, 400);
  });

  it('implicit prefix cache: the second turn reports the first turn as cachedContentTokenCount, inside promptTokenCount', async () => {
    const history: WireMessage[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'first question' }];
    const first = lastUsage((await askRoute(server().url, 'gemini', input(history))).events)!;
    assert.strictEqual(first.cachedTokens, 0);
    history.push({ role: 'assistant', content: 'first answer' }, { role: 'user', content: 'second question' });
    const second = lastUsage((await askRoute(server().url, 'gemini', input(history))).events)!;
    assert.ok(second.cachedTokens >= first.contextTokens - 64 && second.cachedTokens <= second.contextTokens, `cached ${second.cachedTokens} of ${second.contextTokens}`);
  });

  it('errors: the wrong route is the 401 ModelError (format google), a Bearer-only request is refused, max output over the limit is a 400', async () => {
    const wrong = await rejection(askRoute(server().url, 'gemini', { ...input([{ role: 'user', content: 'hi' }]), modelId: 'fake-messages' }));
    assert.strictEqual(wrong.status, 401);
    assert.strictEqual(classifyOpenCodeError(401, wrong.error)?.refusedRoute, 'gemini');
    const onChat = await rejection(askRoute(server().url, 'chat', { ...input([{ role: 'user', content: 'hi' }]) }));
    assert.strictEqual(classifyOpenCodeError(401, onChat.error)?.kind, 'wrong-route');
    const bearer = await fetch(`${server().url}/models/${MODEL}:streamGenerateContent?alt=sse`, { method: 'POST', headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' }, body: JSON.stringify({ contents: [] }) });
    assert.strictEqual(bearer.status, 401);
    assert.strictEqual(classifyOpenCodeError(401, await bearer.json())?.kind, 'auth');
    // The model's limit unknown to the client: the request's own max goes out, and the server refuses it.
    const big = await rejection(askRoute(server().url, 'gemini', input([{ role: 'user', content: 'hi' }], { options: { max_tokens: 100_000 }, maxOutputTokens: undefined })));
    assert.strictEqual(big.status, 400);
    assert.match(big.message, /max_output_tokens/);
  });

  it('thinking effort merged into the body is accepted; thinkingLevel and thinkingBudget together are Gemini\'s 400', async () => {
    const model: EffortSubject = { id: MODEL, route: 'gemini', reasoningControl: { control: 'gemini-level', levels: ['low', 'high'] } };
    const url = `${server().url}/models/${MODEL}:streamGenerateContent?alt=sse`;
    const post = (body: object) => fetch(url, { method: 'POST', headers: { 'x-goog-api-key': 'sk-test', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const body = mergeEffort(buildGeminiBody(input([{ role: 'user', content: 'hi' }])), effortFields(model, 'high')!);
    const ok = await post(body);
    assert.strictEqual(ok.status, 200);
    assert.match(await ok.text(), /"finishReason":"STOP"/);
    const both = mergeEffort(body, { generationConfig: { thinkingConfig: { thinkingBudget: 1024 } } });
    const refused = await post(both);
    assert.strictEqual(refused.status, 400);
    assert.match(JSON.stringify(await refused.json()), /only one of thinking budget and thinking level/);
  });

  describe('faults', () => {
    const ask = (fault: FaultSpec) => {
      server().enqueueFault(fault);
      return askRoute(server().url, 'gemini', input([{ role: 'user', content: 'hello' }]));
    };
    it('HTTP errors, cut streams, malformed frames, no finish, reasoning-only, invalid tool JSON', async () => {
      await assert.rejects(ask({ name: 'status-429', seconds: 2 }), (e: unknown) => e instanceof APIError && e.status === 429);
      await assert.rejects(ask({ name: 'cut-after-text', afterChunks: 3 }), /terminated|other side closed|socket/i);
      const noEnd = await ask({ name: 'no-done' });
      assert.strictEqual(noEnd.result.ended, false, 'no finishReason: not complete');
      const malformed = await ask({ name: 'malformed-chunk', afterChunks: 2 });
      assert.match(textOf(malformed.events, 'text'), /^Answer 1 to: hello/);
      const thinking = await ask({ name: 'reasoning-only' });
      assert.strictEqual(textOf(thinking.events, 'text'), textOf(thinking.events, 'thinking'), 'shown as text too');
      await assert.rejects(ask({ name: 'invalid-tool-json' }), /not valid JSON|JSON/);
    });
  });
});
