/**
 * Split-anywhere properties of the stream's parts and random usage objects:
 * the tool-call accumulator assembles the same calls however the arguments are cut and whether or not
 * later fragments carry `index`; the think-tag splitter gives the same pieces however the text is cut, and
 * only an opening block is thinking; no usage object, however odd, throws or yields a count that is not a
 * non-negative integer, or cache reads above the context.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { ToolCallDelta } from '../core/routes/chat/chatChunk';
import { ChatCallFeed } from './support/chatCallFeed';
import { cutAt } from './support/cutAt';
import { runs } from './support/propertyRuns';
import { checkChunk, readUsage } from '../core/routes/chat/chatChunk';
import { ThinkTagSplitter, type SplitPiece } from '../core/routes/chat/chatReader';
import { mergeUsage } from '../core/usage/usage';

/** Plain objects (fast-check's dictionaries have no prototype; JSON round trip gives what a parser gives). */
const argumentsObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
const toolCall = fc.record({ name: fc.stringMatching(/^[a-z_]{1,12}$/), input: argumentsObject, cuts: fc.array(fc.nat(), { maxLength: 8 }) });

describe('tool-call accumulator: split anywhere', () => {
  it('assembles each call whole, in order, however its JSON is cut and whether later fragments carry index', () => {
    fc.assert(
      fc.property(fc.array(toolCall, { minLength: 1, maxLength: 4 }), fc.boolean(), (calls, omitIndex) => {
        const acc = new ChatCallFeed();
        calls.forEach((call, i) => {
          const pieces = cutAt(JSON.stringify(call.input), call.cuts);
          acc.add({ index: i, id: `call_${i}`, function: { name: call.name, arguments: pieces[0] } });
          for (const piece of pieces.slice(1)) acc.add({ ...(omitIndex ? {} : { index: i }), function: { arguments: piece } });
        });
        assert.deepStrictEqual(acc.drain(), calls.map((call, i) => ({ callId: `call_${i}`, name: call.name, input: call.input })));
      }),
      { numRuns: runs(300) },
    );
  });

  it('keeps interleaved calls apart by index', () => {
    fc.assert(
      fc.property(fc.array(toolCall, { minLength: 2, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 30 }), (calls, order) => {
        const acc = new ChatCallFeed();
        const queues: ToolCallDelta[][] = calls.map((call, i) => [
          { index: i, id: `call_${i}`, function: { name: call.name } },
          ...cutAt(JSON.stringify(call.input), call.cuts).map((piece) => ({ index: i, function: { arguments: piece } })),
        ]);
        for (const pick of order) {
          const next = queues[pick % queues.length].shift();
          if (next) acc.add(next);
        }
        for (const queue of queues) queue.forEach((delta) => acc.add(delta));
        assert.deepStrictEqual(acc.drain().map((c) => c.input), calls.map((c) => c.input));
      }),
      { numRuns: runs(200) },
    );
  });
});

/** What the splitter must produce for a whole text: an opening think block (after whitespace) is thinking. */
function expectedSplit(text: string): { text: string; thinking: string } {
  const match = /^(\s*)<think>([\s\S]*?)(?:<\/think>([\s\S]*))?$/.exec(text);
  if (!match) return { text, thinking: '' };
  return { text: match[1] + (match[3] ?? ''), thinking: match[2] };
}

function split(pieces: string[]): { text: string; thinking: string } {
  const splitter = new ThinkTagSplitter();
  const out: SplitPiece[] = [...pieces.flatMap((p) => splitter.push(p)), ...splitter.flush()];
  return { text: out.filter((p) => p.kind === 'text').map((p) => p.text).join(''), thinking: out.filter((p) => p.kind === 'thinking').map((p) => p.text).join('') };
}

/** Text made of the pieces that trip a tag parser: tags, their prefixes, whitespace and plain letters. */
const tagSoup = fc.array(fc.constantFrom('<think>', '</think>', '<thi', '</th', 'nk>', '<', '>', ' ', '\n', 'a', 'é', '<think', '/'), { maxLength: 16 }).map((parts) => parts.join(''));

describe('think-tag splitter: split anywhere', () => {
  it('gives the same text and thinking however the input is cut, and only an opening block is thinking', () => {
    fc.assert(
      fc.property(tagSoup, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        assert.deepStrictEqual(split(cutAt(text, cuts)), expectedSplit(text), JSON.stringify(text));
      }),
      { numRuns: runs(1000) },
    );
  });

  it('loses no character and adds none: text + thinking + the removed tags is the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), tagSoup, fc.array(fc.nat(), { maxLength: 10 }), (a, b, cuts) => {
        const input = a + b;
        const { text, thinking } = split(cutAt(input, cuts));
        const opened = expectedSplit(input).thinking !== '' || /^\s*<think>/.test(input);
        const removed = opened ? '<think>'.length + (input.includes('</think>', input.indexOf('<think>')) ? '</think>'.length : 0) : 0;
        assert.strictEqual(text.length + thinking.length + removed, input.length);
      }),
      { numRuns: runs(500) },
    );
  });
});

const USAGE_KEYS = [
  'prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_tokens_details', 'cached_tokens', 'prompt_cache_hit_tokens',
  'prompt_cache_miss_tokens', 'input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens',
  'input_tokens_details', 'promptTokenCount', 'candidatesTokenCount', 'cachedContentTokenCount', 'toolUsePromptTokenCount',
  'thoughtsTokenCount', 'totalTokenCount',
];
const oddValue = fc.oneof(
  fc.nat({ max: 2_000_000 }),
  fc.nat({ max: 100_000 }).map(String),
  fc.constantFrom(-1, NaN, Infinity, 1.5, null, '', 'abc', '12abc', true, [] as unknown, {}),
  fc.record({ cached_tokens: fc.oneof(fc.nat({ max: 100_000 }), fc.constant('7')) }),
);
const usageObject = fc.dictionary(fc.constantFrom(...USAGE_KEYS), oddValue, { maxKeys: 8 });

describe('usage objects: fuzz', () => {
  it('never throws; every count is a non-negative integer; cache reads never exceed the context', () => {
    fc.assert(
      fc.property(usageObject, (raw) => {
        const reading = readUsage(raw);
        if (!reading) return;
        const u = reading.usage;
        for (const n of [u.contextTokens, u.cachedTokens, u.cacheWriteTokens, u.completionTokens, u.totalTokens]) assert.ok(Number.isInteger(n) && n >= 0, JSON.stringify(raw));
        assert.ok(u.cachedTokens <= u.contextTokens, JSON.stringify(raw));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('merging a trailing frame with only an output count keeps the context of the frames before', () => {
    fc.assert(
      fc.property(usageObject, fc.nat({ max: 50_000 }), (first, output) => {
        const before = readUsage(first);
        if (!before || before.usage.shape !== 'anthropic') return;
        const after = readUsage(mergeUsage(first, { output_tokens: output }));
        assert.strictEqual(after?.usage.contextTokens, before.usage.contextTokens);
        assert.strictEqual(after?.usage.completionTokens, output);
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('chunk check: idempotent', () => {
  it('a checked chunk checks to itself with no problem, so the mapper may check what frameOf already checked', () => {
    const field = fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null), fc.constant({}), fc.constant([]));
    const rawChunk = fc.record({
      choices: fc.oneof(field, fc.array(fc.oneof(field, fc.record({ delta: fc.oneof(field, fc.record({ content: field, reasoning_content: field, reasoning: field, tool_calls: fc.oneof(field, fc.array(fc.oneof(field, fc.record({ index: field, id: field, function: fc.oneof(field, fc.record({ name: field, arguments: field })) })))) })), finish_reason: field })))),
      usage: field,
      usageMetadata: field,
    });
    fc.assert(
      fc.property(rawChunk, (raw) => {
        const once = checkChunk(raw as Record<string, unknown>).chunk;
        const twice = checkChunk(once as unknown as Record<string, unknown>);
        assert.deepStrictEqual(twice, { chunk: once, problems: 0 });
      }),
      { numRuns: runs(1000) },
    );
  });
});
