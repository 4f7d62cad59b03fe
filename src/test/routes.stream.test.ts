import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { routeById } from '../core/routes/registry/registry';
import { responsesFrames } from '../fakeServer/responsesFrames';
import { fakeSignature, messagesFrames } from '../fakeServer/messagesFrames';
import type { ScriptedReply } from '../fakeServer/types';
import { FIXTURE_DIR } from './support/streamFixtures';
import { callsOf, lastUsage, readSplit, textOf } from './support/routeHarness';
import { runs } from './support/propertyRuns';
import { ToolCallArgumentsError } from '../core/answer/toolCalls';

const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURE_DIR, name), 'utf8');

/** A reply with text (any unicode, whitespace kept), reasoning and tool calls whose arguments are JSON objects. */
const replyArb = fc.record({
  text: fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }), { nil: undefined }),
  reasoning: fc.option(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), { nil: undefined }),
  toolCalls: fc.array(
    fc.record({ id: fc.stringMatching(/^call_[A-Za-z0-9]{1,12}$/), name: fc.constantFrom('read_file', 'grep', 'run'), input: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) }),
    { maxLength: 3 },
  ),
  chunkSize: fc.integer({ min: 1, max: 12 }),
});

type ReplyCase = { text?: string; reasoning?: string; toolCalls: { id: string; name: string; input: Record<string, unknown> }[]; chunkSize: number };

function scripted(c: ReplyCase): ScriptedReply {
  const toolCalls = c.toolCalls.map((t, i) => ({ id: `${t.id}_${i}`, name: t.name, arguments: JSON.stringify(t.input) }));
  return { text: c.text, reasoning: c.reasoning, toolCalls: toolCalls.length ? toolCalls : undefined, chunkSize: c.chunkSize };
}

function cutsArb(text: string) {
  return fc.array(fc.integer({ min: 0, max: Buffer.byteLength(text) }), { maxLength: 12 });
}

const usage = { input_tokens: 1200, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 30, total_tokens: 1230 };
const anthropicUsage = { input_tokens: 10, cache_creation_input_tokens: 200, cache_read_input_tokens: 1000 };

describe('routes: stream reading split at random byte positions', () => {
  it('Responses: text, reasoning, tool calls (ids preserved, complete JSON) and usage survive any split', () => {
    fc.assert(
      fc.property(replyArb.chain((c) => { const reply = scripted(c); const text = responsesFrames({ id: 'r1', model: 'm', reply, usage, cost: 0.001 }).join(''); return fc.tuple(fc.constant(c), fc.constant(reply), fc.constant(text), cutsArb(text)); }),
        ([c, reply, text, cuts]) => {
          const reader = routeById('responses').newReader();
          const out = readSplit(reader, text, cuts);
          assert.deepStrictEqual(out.errors, []);
          assert.strictEqual(textOf(out.events, 'thinking'), c.reasoning ?? '');
          const shownText = textOf(out.events, 'text');
          if (c.text || reply.toolCalls) assert.strictEqual(shownText, c.text ?? '');
          assert.deepStrictEqual(callsOf(out.events), (reply.toolCalls ?? []).map((t) => ({ callId: t.id, name: t.name, input: JSON.parse(t.arguments) })));
          assert.deepStrictEqual(lastUsage(out.events), { shape: 'responses', contextTokens: 1200, cachedTokens: 1024, cacheWriteTokens: 0, completionTokens: 30, totalTokens: 1230 });
          assert.strictEqual(reader.result().ended, true);
          assert.strictEqual(reader.result().finishReason, reply.toolCalls ? 'tool_calls' : 'stop');
          const natives = reader.result().layout?.slots.filter((s) => s.kind === 'native') ?? [];
          assert.strictEqual(natives.length, c.reasoning ? 1 : 0);
        }),
      { numRuns: runs(150) },
    );
  });

  it('Messages: text, signed thinking, tool_use (ids preserved) and merged usage survive any split', () => {
    fc.assert(
      fc.property(replyArb.chain((c) => { const reply = scripted(c); const text = messagesFrames({ id: 'm1', model: 'm', reply, usage: anthropicUsage, cost: 0.001, outputTokens: 42 }).join(''); return fc.tuple(fc.constant(c), fc.constant(reply), fc.constant(text), cutsArb(text)); }),
        ([c, reply, text, cuts]) => {
          const reader = routeById('messages').newReader();
          const out = readSplit(reader, text, cuts);
          assert.deepStrictEqual(out.errors, []);
          assert.strictEqual(textOf(out.events, 'thinking'), c.reasoning ?? '');
          if (c.text || reply.toolCalls) assert.strictEqual(textOf(out.events, 'text'), c.text ?? '');
          assert.deepStrictEqual(callsOf(out.events), (reply.toolCalls ?? []).map((t) => ({ callId: t.id, name: t.name, input: JSON.parse(t.arguments) })));
          // message_start's input/cache fields merged with message_delta's cumulative output_tokens.
          assert.deepStrictEqual(lastUsage(out.events), { shape: 'anthropic', contextTokens: 1210, cachedTokens: 1000, cacheWriteTokens: 200, completionTokens: 42, totalTokens: 1252 });
          assert.strictEqual(reader.result().ended, true);
          const natives = reader.result().layout?.slots.filter((s) => s.kind === 'native') ?? [];
          assert.deepStrictEqual(natives.map((s) => s.kind === 'native' && s.item), c.reasoning ? [{ type: 'thinking', thinking: c.reasoning, signature: fakeSignature(c.reasoning) }] : []);
        }),
      { numRuns: runs(150) },
    );
  });

  it('Responses fixture: CRLF frames, a refusal-free answer, then an `error` event mid-stream is reported', () => {
    const out = readSplit(routeById('responses').newReader(), fixture('responses-error-midstream.sse'));
    assert.strictEqual(textOf(out.events, 'text'), 'Partial  answer');
    assert.deepStrictEqual(out.errors, [{ type: 'error', code: 'server_error', message: 'The server had an error processing your request.', param: null, sequence_number: 4 }]);
  });

  it('Responses fixture: response.incomplete (max_output_tokens) is a complete stream with finish "length"', () => {
    const reader = routeById('responses').newReader();
    const out = readSplit(reader, fixture('responses-incomplete.sse'));
    assert.strictEqual(textOf(out.events, 'text'), 'Cut off here');
    assert.strictEqual(reader.result().finishReason, 'length');
    assert.strictEqual(lastUsage(out.events)?.contextTokens, 500);
  });

  it('Responses fixture: response.failed is an error; a call cut before its item finished is dropped, not run with {}', () => {
    const reader = routeById('responses').newReader();
    const out = readSplit(reader, fixture('responses-failed.sse'));
    assert.deepStrictEqual(callsOf(out.events), []);
    assert.strictEqual(reader.result().dropped.length, 1);
    assert.deepStrictEqual(out.errors, [{ code: 'rate_limit_exceeded', message: 'Rate limit reached' }]);
  });

  it('Messages fixture: pings, redacted thinking kept whole, overloaded `error` event reported, cost ping after message_stop ignored', () => {
    const reader = routeById('messages').newReader();
    const out = readSplit(reader, fixture('messages-overloaded.sse'));
    assert.strictEqual(textOf(out.events, 'text'), 'Hello');
    assert.deepStrictEqual(out.errors, [{ type: 'overloaded_error', message: 'Overloaded' }]);
    assert.deepStrictEqual(reader.result().layout?.slots[0], { kind: 'native', item: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' } });
  });

  it('Messages fixture: cumulative message_delta usage replaces, never adds; stop reasons are normalized', () => {
    const reader = routeById('messages').newReader();
    const out = readSplit(reader, fixture('messages-cumulative-usage.sse'));
    // One usage for the answer (the engine reports it once): the last cumulative output count, not a sum.
    const usages = out.events.flatMap((e) => (e.kind === 'usage' ? [e.usage.completionTokens] : []));
    assert.deepStrictEqual(usages, [40]);
    assert.strictEqual(lastUsage(out.events)?.contextTokens, 3 + 2048 + 100);
    assert.strictEqual(reader.result().finishReason, 'length');
    assert.strictEqual(reader.result().ended, true);
  });

  it('Responses fixture: calls whose items never finished come from response.completed\'s output, once each', () => {
    const reader = routeById('responses').newReader();
    const out = readSplit(reader, fixture('responses-calls-only-in-completed.sse'));
    assert.deepStrictEqual(callsOf(out.events), [{ callId: 'call_a', name: 'grep', input: { q: 'x y' } }, { callId: 'call_b', name: 'ls', input: {} }]);
    assert.strictEqual(reader.result().dropped.length, 0);
    assert.strictEqual(reader.result().finishReason, 'tool_calls');
  });

  it('Messages fixture: a tool_use whose input came whole on its start block (no deltas) keeps that input', () => {
    const reader = routeById('messages').newReader();
    const out = readSplit(reader, fixture('messages-input-on-start.sse'));
    assert.deepStrictEqual(callsOf(out.events), [{ callId: 'toolu_1', name: 'read', input: { path: 'a.ts' } }, { callId: 'toolu_2', name: 'ls', input: {} }]);
    assert.strictEqual(reader.result().finishReason, 'tool_calls');
  });

  it('a tool call with invalid JSON arguments is an error on both native routes (never run)', () => {
    const reply: ScriptedReply = { toolCalls: [{ id: 'call_x', name: 'read_file', arguments: '{"path": ' }] };
    const r = responsesFrames({ id: 'x', model: 'm', reply, usage, cost: 0 }).join('');
    assert.throws(() => readSplit(routeById('responses').newReader(), r), ToolCallArgumentsError);
    const m = messagesFrames({ id: 'x', model: 'm', reply, usage: anthropicUsage, cost: 0, outputTokens: 1 }).join('');
    assert.throws(() => readSplit(routeById('messages').newReader(), m), ToolCallArgumentsError);
  });

  it('malformed payloads are reported, not fatal; the chat route reads through the same interface', () => {
    const out = readSplit(routeById('messages').newReader(), 'data: {not json\n\n');
    assert.deepStrictEqual(out.malformed, ['{not json']);
    const chat = routeById('chat').newReader();
    const result = readSplit(chat, 'data: {"choices":[{"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: {"choices":[],"cost":"0.01"}\n\ndata: [DONE]\n\n');
    assert.strictEqual(textOf(result.events, 'text'), 'hi');
    assert.strictEqual(chat.result().ended, true);
  });
});
