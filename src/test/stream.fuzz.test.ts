/**
 * Fuzz suite for stream frames: random answers (reasoning, text that may mention `<think>`, tool calls)
 * sent as random frame sequences with junk mixed in (payloads that are not JSON, chunks of the wrong shape,
 * keep-alive comments, usage in pieces, a gateway's cost frame), cut into random byte pieces, read the way the
 * transport reads them. Never a throw; the text arrives exactly once, never lost, never duplicated; tool calls
 * only whole, with their complete JSON; usage merged. A few runs go over real HTTP through the engine.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { routeById } from '../core/routes/registry/registry';
import { usageEvent } from './support/routeHarness';
import type { StreamEvent } from '../core/types';
import { chat, engineFor, runOnce } from './support/engineHarness';
import { cutAt } from './support/cutAt';
import { rawSseServer } from './support/rawSseServer';
import { runs } from './support/propertyRuns';
import { SseDecoder, type SseEvent } from '../core/stream/answerStream';

interface Answer {
  reasoning: string[];
  text: string[];
  calls: { id: string; name: string; input: Record<string, unknown>; cuts: number[] }[];
  junk: { at: number; payload: string }[];
  promptTokens: number;
  outputTokens: number;
}

const JUNK = [
  '{not json', '42', 'null', '[1,2]', '"text"', '{"choices":{"0":{}}}', '{"choices":[null]}', '{"choices":[{"delta":{"content":7}}]}',
  '{"choices":[{"delta":{"tool_calls":{"index":0}}}]}', '{"choices":[{"delta":[]}]}', '{"choices":[],"cost":"0.0012"}', '{"type":"ping","cost":"0.01"}',
];
const textPiece = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('<think>', '</think>', ' <thi', 'nk> ', '\n', 'é漢字 🎉'));
const plainObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), { maxKeys: 3 })
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
const answer: fc.Arbitrary<Answer> = fc.record({
  reasoning: fc.array(fc.string({ minLength: 1, maxLength: 10 }), { maxLength: 3 }),
  // Starts with a letter: a leading think block is the splitter's business (tested apart), not this suite's.
  text: fc.array(textPiece, { maxLength: 8 }).map((pieces) => ['A', ...pieces]),
  calls: fc.array(fc.record({ id: fc.stringMatching(/^call_[a-z0-9]{1,6}$/), name: fc.stringMatching(/^[a-z_]{1,10}$/), input: plainObject, cuts: fc.array(fc.nat(), { maxLength: 5 }) }), { maxLength: 3 })
    .map((calls) => calls.map((c, i) => ({ ...c, id: `${c.id}_${i}` }))),
  junk: fc.array(fc.record({ at: fc.nat(), payload: fc.constantFrom(...JUNK) }), { maxLength: 4 }),
  promptTokens: fc.nat({ max: 500_000 }),
  outputTokens: fc.nat({ max: 5_000 }),
});

const data = (payload: object | string): string => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
const delta = (d: object, finish: string | null = null): string => data({ choices: [{ index: 0, delta: d, finish_reason: finish }] });

/** The answer as SSE: reasoning, text, tool calls (index only on the first fragment, half the time), finish, usage in two frames, [DONE]. */
function sseOf(a: Answer, omitIndex: boolean): string {
  const frames: string[] = [': keep-alive\n\n'];
  for (const r of a.reasoning) frames.push(delta({ reasoning_content: r }));
  for (const t of a.text) frames.push(delta({ content: t }));
  a.calls.forEach((call, i) => {
    const pieces = cutAt(JSON.stringify(call.input), call.cuts);
    frames.push(delta({ tool_calls: [{ index: i, id: call.id, type: 'function', function: { name: call.name, arguments: pieces[0] } }] }));
    for (const piece of pieces.slice(1)) frames.push(delta({ tool_calls: [{ ...(omitIndex ? {} : { index: i }), function: { arguments: piece } }] }));
  });
  for (const junk of a.junk) frames.splice(1 + (junk.at % frames.length), 0, data(junk.payload));
  frames.push(delta({}, a.calls.length ? 'tool_calls' : 'stop'));
  frames.push(data({ choices: [], usage: { input_tokens: a.promptTokens, cache_read_input_tokens: 0, output_tokens: 1 } }));
  frames.push(data({ choices: [], usage: { output_tokens: a.outputTokens } }), 'data: [DONE]\n\n');
  return frames.join('');
}

/** Reads SSE bytes in the given pieces as the transport does: UTF-8 across pieces, SSE decoding, the chat reader. */
function readInPieces(bytes: Buffer, cuts: number[]): StreamEvent[] {
  const utf8 = new TextDecoder();
  const sse = new SseDecoder();
  const reader = routeById('chat').newReader();
  const events: StreamEvent[] = [];
  const onPayloads = (payloads: SseEvent[]): void => {
    for (const payload of payloads) {
      const result = reader.push(payload.data, payload.event);
      events.push(...result.events);
      assert.strictEqual(result.error, undefined);
    }
  };
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
  let from = 0;
  for (const point of [...points, bytes.length]) {
    onPayloads(sse.push(utf8.decode(bytes.subarray(from, point), { stream: true })));
    from = point;
  }
  onPayloads([...sse.push(utf8.decode()), ...sse.flush()]);
  return [...events, ...reader.finish(), ...usageEvent(reader)];
}

function assertFaithful(a: Answer, events: StreamEvent[]): void {
  const joined = (kind: 'text' | 'thinking') => events.map((e) => (e.kind === kind ? e.text : '')).join('');
  assert.strictEqual(joined('text'), a.text.join(''), 'text exactly once, nothing lost');
  assert.strictEqual(joined('thinking'), a.reasoning.join(''));
  const calls = events.filter((e) => e.kind === 'toolCall');
  assert.deepStrictEqual(calls, a.calls.map((c) => ({ kind: 'toolCall', callId: c.id, name: c.name, input: c.input })));
  const usage = events.filter((e) => e.kind === 'usage').at(-1);
  assert.ok(usage?.kind === 'usage');
  assert.deepStrictEqual([usage.usage.contextTokens, usage.usage.completionTokens], [a.promptTokens, a.outputTokens]);
}

describe('stream frames: fuzz', () => {
  it('random answers, junk frames and byte splits: no throw, text once, whole tool calls, merged usage', () => {
    fc.assert(
      fc.property(answer, fc.boolean(), fc.array(fc.nat(), { maxLength: 25 }), (a, omitIndex, cuts) => {
        assertFaithful(a, readInPieces(Buffer.from(sseOf(a, omitIndex), 'utf8'), cuts));
      }),
      { numRuns: runs(400) },
    );
  });

  it('a stream cut anywhere before its finish reason: the text is a prefix of the answer and no tool call is half-made', () => {
    fc.assert(
      fc.property(answer, fc.nat(), (a, cutAtByte) => {
        const bytes = Buffer.from(sseOf(a, false), 'utf8');
        const head = bytes.subarray(0, cutAtByte % bytes.indexOf('"finish_reason":"'));
        const sse = new SseDecoder();
        const reader = routeById('chat').newReader();
        const events: StreamEvent[] = [];
        for (const payload of sse.push(new TextDecoder().decode(head))) events.push(...reader.push(payload.data, payload.event).events);
        events.push(...reader.abandon()); // what the engine keeps from a broken stream
        const text = events.map((e) => (e.kind === 'text' ? e.text : '')).join('');
        assert.ok(a.text.join('').startsWith(text), 'a prefix, never a duplicate');
        assert.deepStrictEqual(events.filter((e) => e.kind === 'toolCall'), []);
      }),
      { numRuns: runs(300) },
    );
  });

  it('over real HTTP through the engine, written in random byte pieces', async () => {
    await fc.assert(
      fc.asyncProperty(answer, fc.integer({ min: 1, max: 40 }), async (a, piece) => {
        const server = await rawSseServer(Buffer.from(sseOf(a, true), 'utf8'), piece);
        try {
          const { engine } = engineFor(server.url, { maxRetries: 0 });
          const { events, outcome } = await runOnce(engine, 'any-model', chat('fuzz'));
          assertFaithful(a, [...events]);
          assert.strictEqual(outcome.truncated, false);
        } finally {
          await server.close();
        }
      }),
      { numRuns: runs(25) },
    );
  });
});
