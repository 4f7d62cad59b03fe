/**
 * Fuzz over the assembler (AnswerReader, over a wire that passes neutral events through): random sequences of
 * neutral events — text, thinking, refusals, tool-call pieces and ends in any order (some keys repeated, some ids
 * missing or repeated, some arguments broken), usage frames (numbers, numeric strings, junk), finish reasons,
 * keep-alives, cost, junk payloads. Whatever arrives: no throw but the documented one, text shown exactly as it came
 * (plus the one filter note), one delivery per wire call, ids non-empty and unique, only JSON-object arguments
 * delivered, every non-delivered call accounted for.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { WireEvent, WireReader } from '../core/answer/wireEvent';
import { ROUTE_IDS } from '../core/routeId';
import type { StreamEvent } from '../core/types';
import { readUsage } from '../core/routes/chat/chatChunk';
import { AnswerReader, stoppedNote } from '../core/answer/answerReader';
import { ToolCallArgumentsError } from '../core/answer/toolCalls';
import { runs } from './support/propertyRuns';

const key = fc.constantFrom('0', '1', '2', 'fc_a');
const id = fc.constantFrom(undefined, '', 'call_1', 'call_2');
const name = fc.constantFrom(undefined, 'read_file', 'grep');
const args = fc.oneof(fc.constant(undefined), fc.constantFrom('{"a":1}', '{}', '{"b":', '}', '[1]', ''), fc.json({ maxDepth: 2 }));
const count = fc.oneof(fc.nat({ max: 100_000 }), fc.nat({ max: 100_000 }).map(String), fc.constantFrom(-5, Number.NaN, 'x', null));
const rawUsage = fc.record({ prompt_tokens: count, completion_tokens: count, prompt_tokens_details: fc.record({ cached_tokens: count }) }, { requiredKeys: [] });

const event: fc.Arbitrary<WireEvent> = fc.oneof(
  fc.string({ maxLength: 8 }).map((text) => ({ kind: 'text', text }) as const),
  fc.string({ maxLength: 8 }).map((text) => ({ kind: 'thinking', text }) as const),
  fc.string({ maxLength: 8 }).map((text) => ({ kind: 'refusal', text }) as const),
  fc.record({ key, id, name, args }).map((p) => ({ kind: 'toolPart', ...p }) as const),
  fc.record({ key, id, name, args }).map((p) => ({ kind: 'toolEnd', ...p }) as const),
  fc.record({ raw: rawUsage, merge: fc.constantFrom('fields', 'replace') }).map((u) => ({ kind: 'usage', read: readUsage, ...u }) as WireEvent),
  fc.constantFrom('stop', 'tool_calls', 'length', 'content_filter').map((reason) => ({ kind: 'finish', reason, wire: reason.toUpperCase() }) as const),
  fc.constant({ kind: 'keepAlive' } as const),
  fc.double({ min: 0, max: 1, noNaN: true }).map((usd) => ({ kind: 'cost', usd }) as const),
  fc.string({ maxLength: 6 }).map((raw) => ({ kind: 'malformed', raw }) as const),
  fc.constant({ kind: 'native', item: { type: 'reasoning' } } as const),
);

/** A route's translation that passes each payload (an array of neutral events) through as it is. */
const echoWire: WireReader = { read: (events) => events as WireEvent[], end: () => [], abandon: () => [] };

/** The events cut into payloads anywhere (one payload = one take). */
const payloads = fc.array(event, { maxLength: 40 }).chain((events) => fc.array(fc.nat({ max: events.length }), { maxLength: 8 }).map((cuts) => split(events, cuts)));

function split<T>(items: T[], cuts: number[]): T[][] {
  const points = [...new Set(cuts)].sort((a, b) => a - b);
  const out: T[][] = [];
  let from = 0;
  for (const point of [...points, items.length]) {
    out.push(items.slice(from, point));
    from = point;
  }
  return out;
}

describe('assembler fuzz: random neutral event sequences, split into random payloads', () => {
  it('never throws but the documented refusal, shows the text as it came, one delivery per call, ids unique, arguments whole', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROUTE_IDS), payloads, (route, takes) => {
        const reader = new AnswerReader(route, echoWire, 'seed');
        const shown: StreamEvent[] = [];
        for (const take of takes) shown.push(...reader.push(take).events);
        const events = takes.flat();
        try {
          shown.push(...reader.finish());
        } catch (error) {
          // Only when the answer was nothing but broken calls (retried as a bad answer).
          assert.ok(error instanceof ToolCallArgumentsError);
          assert.ok(!shown.some((e) => e.kind === 'text' || e.kind === 'toolCall'));
          return;
        }
        const result = reader.result();
        const text = shown.map((e) => (e.kind === 'text' ? e.text : '')).join('');
        const sent = events.map((e) => (e.kind === 'text' || e.kind === 'refusal' ? e.text : '')).join('');
        const thinking = events.map((e) => (e.kind === 'thinking' ? e.text : '')).join('');
        const notes = text.split(stoppedNote('CONTENT_FILTER')).join('');
        assert.ok(notes === sent || (sent === '' && result.toolCalls === 0 && notes === thinking), JSON.stringify({ text, sent }));
        const calls = shown.flatMap((e) => (e.kind === 'toolCall' ? [e] : []));
        assert.ok(calls.every((c) => c.callId.length > 0));
        assert.strictEqual(new Set(calls.map((c) => c.callId)).size, calls.length);
        assert.ok(calls.every((c) => c.input !== null && typeof c.input === 'object' && !Array.isArray(c.input)));
        const keys = new Set(events.flatMap((e) => (e.kind === 'toolPart' || e.kind === 'toolEnd' ? [e.key] : [])));
        assert.strictEqual(calls.length + result.dropped.length, keys.size, 'every wire call delivered once or dropped');
        const usage = result.usage;
        if (usage) for (const n of Object.values(usage).filter((v) => typeof v === 'number')) assert.ok(Number.isInteger(n) && n >= 0);
        if (usage) assert.ok(usage.cachedTokens <= usage.contextTokens);
      }),
      { numRuns: runs(2_000) },
    );
  });
});
