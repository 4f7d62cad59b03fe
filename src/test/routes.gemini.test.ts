/** The Gemini route's body, schema reduction, tool names and stream reader (no HTTP: see routes.gemini.http.test.ts). */
import * as assert from 'assert';
import fc from 'fast-check';
import { buildGeminiBody, geminiToolName, originalToolName } from '../core/routes/gemini/geminiBody';
import { geminiUsage, newGeminiReader } from '../core/routes/gemini/geminiStream';
import { routeById } from '../core/routes/registry/registry';
import { NativeReplayMemory } from '../core/answer/nativeReplay';
import type { BodyInput } from '../core/routes/route';
import type { WireMessage, WireTool } from '../core/wire/wireTypes';
import { geminiFrames } from '../fakeServer/geminiFrames';
import { conversationArb } from './support/conversationArb';
import { callsOf, lastUsage, readSplit, textOf } from './support/routeHarness';
import { runs } from './support/propertyRuns';
import { KEY_HEADER } from '../core/routes/requestParts';

type Json = Record<string, unknown>;
const TOOLS: WireTool[] = [
  { type: 'function', function: { name: 'grep', description: 'search', parameters: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer', enum: [1, 2] } }, required: ['q', 'gone'] } } },
  { type: 'function', function: { name: 'read', description: 'read a file', parameters: { type: 'object', properties: {} } } },
];
const input = (messages: WireMessage[], extra: Partial<BodyInput> = {}): BodyInput => ({ modelId: 'gemini-3-flash', messages, tools: TOOLS, sessionId: 'ses_1', ...extra });
const TOOL_TURN: WireMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Look at ' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
  { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }, { id: 'call_2', type: 'function', function: { name: 'grep', arguments: '{"q":"x"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'file text' },
  { role: 'tool', tool_call_id: 'call_2', content: '{"hits":3}' },
];
const frame = (payload: object): string => `data: ${JSON.stringify(payload)}\r\n\r\n`;
const chunk = (parts: Json[], extra: Json = {}): string => frame({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], responseId: 'resp_1' });

describe('routes: Gemini', () => {
  it('path names the model, key goes in x-goog-api-key only', () => {
    assert.strictEqual(routeById('gemini').pathFor?.('gemini-3.1-pro'), '/models/gemini-3.1-pro:streamGenerateContent?alt=sse');
    // The route names the header; the client's fetch wrapper puts the key there (clientIsolation.test.ts checks the wire).
    const headers = routeById('gemini').headers({ sessionId: 's', requestId: 'r' });
    assert.strictEqual(headers[KEY_HEADER], 'x-goog-api-key');
    assert.strictEqual(headers.authorization, undefined);
    assert.ok(!Object.values(headers).includes('k'), 'the key itself is never in route headers');
    assert.strictEqual(headers['x-opencode-session'], 's');
  });

  it('body: systemInstruction, user/model roles, functionCall/functionResponse (response required), results in one user turn, contents last', () => {
    const body = buildGeminiBody(input(TOOL_TURN, { maxOutputTokens: 65_536, options: { max_tokens: 100_000, temperature: 0.2, stop: ['x'] }, reasons: true }));
    assert.deepStrictEqual(body.generationConfig, { maxOutputTokens: 65_536, temperature: 0.2, stopSequences: ['x'], thinkingConfig: { includeThoughts: true } });
    assert.deepStrictEqual(body.systemInstruction, { parts: [{ text: 'Be brief.' }] });
    assert.deepStrictEqual(body.contents, [
      { role: 'user', parts: [{ text: 'Look at ' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
      { role: 'model', parts: [{ text: 'Reading.' }, { functionCall: { name: 'read', args: { path: 'a.ts' } }, thoughtSignature: 'skip_thought_signature_validator' }, { functionCall: { name: 'grep', args: { q: 'x' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read', response: { content: 'file text' } } }, { functionResponse: { name: 'grep', response: { hits: 3 } } }] },
    ]);
    const declarations = (body.tools as Json[])[0].functionDeclarations as Json[];
    assert.deepStrictEqual(declarations[0].parameters, { type: 'object', properties: { q: { type: 'string' }, n: { type: 'string', enum: ['1', '2'] } }, required: ['q'] });
    assert.strictEqual(declarations[1].parameters, undefined, 'an object without properties is sent as no parameters');
    assert.strictEqual(Object.keys(body).pop(), 'contents');
  });

  it('a thinking model\'s unsigned calls (history from another route) get Gemini\'s stand-in on the first call of each step only', () => {
    const contents = buildGeminiBody(input(TOOL_TURN, { reasons: true })).contents as Json[];
    const calls = (contents[1].parts as Json[]).filter((p) => p.functionCall);
    assert.deepStrictEqual(calls.map((p) => p.thoughtSignature), ['skip_thought_signature_validator', undefined]);
    const plain = buildGeminiBody(input(TOOL_TURN)).contents as Json[];
    assert.ok(!JSON.stringify(plain).includes('thoughtSignature'), 'not for models that do not think');
  });

  it('thought signatures (and Gemini ids) come back unchanged on the call they came with, after a restart', () => {
    const reader = newGeminiReader();
    const stream = chunk([{ text: 'Reading.' }]) + chunk([{ functionCall: { name: 'read', args: { path: 'a.ts' } }, thoughtSignature: 'SIG1' }]) + chunk([{ functionCall: { name: 'grep', args: { q: 'x' }, id: 'g2' } }], { finishReason: 'STOP' });
    const out = readSplit(reader, stream);
    const calls = callsOf(out.events);
    assert.strictEqual(calls[1].callId, 'g2');
    assert.match(calls[0].callId, /^call_gm_[0-9a-f]{24}$/);
    assert.strictEqual(reader.result().finishReason, 'tool_calls');
    const memory = new NativeReplayMemory();
    assert.ok(memory.remember(reader.result().layout));
    const restored = NativeReplayMemory.fromJSON(JSON.parse(JSON.stringify(memory)));
    const history: WireMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Reading.', tool_calls: calls.map((c) => ({ id: c.callId, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input) } })) },
      { role: 'tool', tool_call_id: calls[0].callId, content: 'a' },
      { role: 'tool', tool_call_id: 'g2', content: 'b' },
    ];
    const contents = buildGeminiBody(input(history, { replay: restored })).contents as Json[];
    assert.deepStrictEqual((contents[1].parts as Json[]).slice(1), [
      { functionCall: { name: 'read', args: { path: 'a.ts' } }, thoughtSignature: 'SIG1' },
      { functionCall: { name: 'grep', args: { q: 'x' }, id: 'g2' } },
    ]);
    assert.deepStrictEqual((contents[2].parts as Json[])[1], { functionResponse: { name: 'grep', response: { content: 'b' }, id: 'g2' } });
    // A layout from another route is never used.
    assert.strictEqual(restored.layoutFor(calls[0].callId, 'messages'), undefined);
  });

  it('synthesized call ids: deterministic for the same answer, unique per call and per answer', () => {
    const ids = (responseId: string): string[] => {
      const stream = frame({ responseId, candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'read', args: {} } }, { functionCall: { name: 'read', args: {} } }] }, finishReason: 'STOP' }] });
      return callsOf(readSplit(newGeminiReader(), stream).events).map((c) => c.callId);
    };
    assert.deepStrictEqual(ids('r1'), ids('r1'));
    assert.strictEqual(new Set([...ids('r1'), ...ids('r2')]).size, 4);
  });

  it('a signature that arrives alone on a later empty part is kept for the call before it', () => {
    const reader = newGeminiReader();
    readSplit(reader, chunk([{ functionCall: { name: 'read', args: {} } }]) + chunk([{ text: '', thoughtSignature: 'LATE' }], { finishReason: 'STOP' }));
    assert.ok(JSON.stringify(reader.result().layout).includes('"thoughtSignature":"LATE"'));
  });

  it('tool names Gemini refuses are mapped deterministically and mapped back', () => {
    const odd = 'mcp/server tool!';
    const mapped = geminiToolName(odd);
    assert.match(mapped, /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/);
    assert.strictEqual(geminiToolName(odd), mapped);
    assert.notStrictEqual(geminiToolName('mcp/server tool?'), mapped);
    assert.strictEqual(geminiToolName('read_file'), 'read_file');
    const reader = newGeminiReader();
    const out = readSplit(reader, chunk([{ functionCall: { name: mapped, args: {} } }], { finishReason: 'STOP' }));
    assert.strictEqual(callsOf(out.events)[0].name, odd);
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (name) => /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/.test(geminiToolName(name)) && originalToolName(geminiToolName(name)) === name));
  });

  it('usage: prompt includes cached, tool-use prompt counted, thoughts are output', () => {
    assert.deepStrictEqual(geminiUsage({ promptTokenCount: 1000, cachedContentTokenCount: 600, candidatesTokenCount: 50, thoughtsTokenCount: 30, toolUsePromptTokenCount: 7 }), {
      shape: 'gemini', contextTokens: 1007, cachedTokens: 600, cacheWriteTokens: 0, completionTokens: 80, totalTokens: 1087,
    });
  });

  it('reader: thoughts, text, finish reasons, error payloads, the cost frame ignored, a thinking-only answer shown', () => {
    const reader = newGeminiReader();
    const out = readSplit(reader, chunk([{ text: 'hmm', thought: true }]) + chunk([{ text: 'Hi' }], { finishReason: 'MAX_TOKENS' }) + frame({ usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }) + 'data: {"type":"ping","cost":"0.001"}\r\n\r\n');
    assert.strictEqual(textOf(out.events, 'thinking'), 'hmm');
    assert.strictEqual(textOf(out.events, 'text'), 'Hi');
    assert.strictEqual(reader.result().finishReason, 'length');
    assert.strictEqual(reader.result().ended, true);
    assert.strictEqual(lastUsage(out.events)?.contextTokens, 5);
    assert.deepStrictEqual(out.malformed, []);
    const errored = readSplit(newGeminiReader(), frame({ error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } }));
    assert.strictEqual(errored.errors[0].status, 'RESOURCE_EXHAUSTED');
    const safety = newGeminiReader();
    readSplit(safety, chunk([], { finishReason: 'SAFETY' }));
    assert.strictEqual(safety.result().finishReason, 'content_filter');
    const onlyThoughts = readSplit(newGeminiReader(), chunk([{ text: 'just thinking', thought: true }], { finishReason: 'STOP' }));
    assert.strictEqual(textOf(onlyThoughts.events, 'text'), 'just thinking');
  });

  it('property: a stream split anywhere reads the same', () => {
    const stream = chunk([{ text: 'think ✓', thought: true }]) + chunk([{ text: 'héllo wörld 🙂' }]) + chunk([{ functionCall: { name: 'grep', args: { q: 'ä' } }, thoughtSignature: 'S' }]) + chunk([], { finishReason: 'STOP' }) + frame({ usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3 } }) + 'data: {"type":"ping","cost":"0.1"}\r\n\r\n';
    const whole = readSplit(newGeminiReader(), stream);
    const bytes = Buffer.byteLength(stream);
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: bytes }), { maxLength: 12 }), (cuts) => {
      const reader = newGeminiReader();
      const split = readSplit(reader, stream, cuts);
      assert.deepStrictEqual(split.events, whole.events);
      assert.strictEqual(reader.result().finishReason, 'tool_calls');
    }));
  });

  it('property: any reply the fake server renders as Gemini frames, split at any bytes, reads back as it was sent', () => {
    const replyArb = fc.record({
      reasoning: fc.option(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), { nil: undefined }),
      text: fc.option(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), { nil: undefined }),
      calls: fc.array(fc.record({ name: fc.constantFrom('read_file', 'grep'), input: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) }), { maxLength: 3 }),
      chunkSize: fc.integer({ min: 1, max: 12 }),
    });
    fc.assert(fc.property(replyArb.chain((r) => {
      const reply = { reasoning: r.reasoning, text: r.text, chunkSize: r.chunkSize, toolCalls: r.calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.input) })) };
      const stream = geminiFrames({ id: 'resp_x', model: 'm', reply, usage: { promptTokenCount: 100, cachedContentTokenCount: 64, candidatesTokenCount: 5 }, cost: 0.01, signed: true }).join('');
      return fc.tuple(fc.constant(r), fc.constant(stream), fc.array(fc.integer({ min: 0, max: Buffer.byteLength(stream) }), { maxLength: 8 }));
    }), ([r, stream, cuts]) => {
      const reader = newGeminiReader();
      const out = readSplit(reader, stream, cuts);
      // An answer that came only as (non-blank) thinking is also shown as text.
      const onlyThinking = !r.text && r.calls.length === 0 && (r.reasoning ?? '').trim() !== '';
      assert.strictEqual(textOf(out.events, 'text'), r.text ?? (onlyThinking ? r.reasoning : ''));
      assert.strictEqual(textOf(out.events, 'thinking'), r.reasoning ?? '');
      assert.deepStrictEqual(callsOf(out.events).map((c) => ({ name: c.name, input: c.input })), r.calls.map((c) => ({ name: c.name, input: JSON.parse(JSON.stringify(c.input)) as object })));
      assert.strictEqual(new Set(callsOf(out.events).map((c) => c.callId)).size, r.calls.length);
      assert.deepStrictEqual(lastUsage(out.events), { shape: 'gemini', contextTokens: 100, cachedTokens: 64, cacheWriteTokens: 0, completionTokens: 5, totalTokens: 105 });
      assert.strictEqual(reader.result().finishReason, r.calls.length > 0 ? 'tool_calls' : 'stop');
      assert.deepStrictEqual(out.malformed, []);
      if (r.calls.length > 0) assert.ok(JSON.stringify(reader.result().layout).includes('gsig_'));
    }), { numRuns: runs(150) });
  });

  it('property: the body of turn N without its closing `]}` is a byte prefix of turn N+1 (signatures remembered)', () => {
    fc.assert(fc.property(conversationArb, ({ turns }) => {
      const memory = new NativeReplayMemory();
      for (const message of turns[turns.length - 1]) {
        const first = message.role === 'assistant' ? message.tool_calls?.[0] : undefined;
        if (first) memory.remember({ route: 'gemini', slots: [{ kind: 'native', item: { type: 'gemini.functionCall', callId: first.id, thoughtSignature: `s_${first.id}` } }, { kind: 'call', callId: first.id }] });
      }
      const bodies = turns.map((messages) => JSON.stringify(buildGeminiBody(input(messages, { replay: memory, maxOutputTokens: 1000, reasons: true }))));
      for (let i = 1; i < bodies.length; i++) assert.ok(bodies[i].startsWith(bodies[i - 1].slice(0, -2)), `turn ${i}`);
    }));
  });
});
