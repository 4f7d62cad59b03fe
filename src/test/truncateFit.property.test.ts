/**
 * The newest message, when it alone is over the budget, keeps as much as the budget allows
 * whatever its characters — JSON, code, logs with quotes, newlines and backslashes, unicode — on every route,
 * as a user message or a tool result. "What fits" is the trim's own measure (calibrated estimator tokens and the
 * bytes the text takes in the JSON body); the kept part must be at least 90% of it, the request must fit, and
 * the marker rule must hold (head 70%, tail 30%, the marker saying exactly how many characters went).
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { prepareConverted, type PreparedRequest } from '../core/request/prepareRequest';
import { routeById } from '../core/routes/registry/registry';
import { ROUTE_IDS, type RouteId } from '../core/routeId';
import { calibratedTokens } from '../core/trim/historyTrim';
import { measureMessage, SizeMemo } from '../core/trim/messageSize';
import { cutText } from '../core/trim/truncateOversized';
import type { WireMessage } from '../core/wire/wireTypes';
import { defaultSettings } from './support/trimHarness';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';
import { runs } from './support/propertyRuns';

const MARKER = /\n\n\[… (\d+) characters removed by the OpenCode extension to fit the model's context window …\]\n\n/g;
const QUESTION = '\n\nWhich record is malformed?';

/** A block of text of one of the hard kinds; the paste is blocks repeated to the wanted size. */
const block = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\t', '\r', 'a', ' ', '{', '}', ':', ',', 'é', '中', '😀', '\u0001', '/'), minLength: 20, maxLength: 400 }),
  fc.constantFrom('  const x = "a\\\\b";\n  if (x) { return `${x}`; }\n', 'ERROR 2026-12-01T10:00:00Z "GET /v1" status=500\n', '{"id": 1, "name": "a \\"quoted\\" name", "tags": ["x", "y"]}\n'),
  fc.lorem({ maxCount: 30 }),
);

interface Case {
  blocks: string[];
  chars: number;
  budget: number;
  calibration: number;
  route: RouteId;
  asToolResult: boolean;
}

function pasteOf(blocks: readonly string[], chars: number): string {
  const unit = blocks.join('\n');
  return unit.repeat(Math.ceil(chars / Math.max(1, unit.length))).slice(0, chars);
}

function historyFor(paste: string, asToolResult: boolean): WireMessage[] {
  if (!asToolResult) return [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: paste + QUESTION }];
  return [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Read data.json and find the malformed record.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"data.json"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: paste },
  ];
}

function prepare(c: Case, messages: WireMessage[]): PreparedRequest {
  const settings = { ...defaultSettings, budgetOverrideTokens: c.budget };
  return prepareConverted({ purpose: 'conversation', modelId: 'm', messages: [], tools: [] }, messages, {
    settings, limits: { contextWindow: c.budget * 2, maxOutputTokens: 16_000 }, calibration: c.calibration, memo: new SizeMemo(), states: new ConversationStates(), log: new MemoryLogger(), route: routeById(c.route),
  });
}

function check(c: Case): void {
  const paste = pasteOf(c.blocks, c.chars);
  const messages = historyFor(paste, c.asToolResult);
  const original = messages.at(-1)!.content as string;
  const prepared = prepare(c, messages);
  const { trim, geometry, budget } = prepared;
  const last = trim.messages.at(-1)!;
  const sent = last.content as string;
  assert.ok(!trim.overCeiling, `the request fits: ~${trim.estTokens}/${geometry.ceiling} tokens, ${trim.bytes}/${budget.maxBytes} bytes`);
  if (sent === original) return; // It fitted whole.
  // The marker rule: one marker; what is around it is the start and the end of the original, 70/30, and the count is exact.
  const markers = [...sent.matchAll(MARKER)];
  assert.strictEqual(markers.length, 1, 'one marker');
  const [marker] = markers;
  const head = sent.slice(0, marker.index);
  const tail = sent.slice(marker.index + marker[0].length);
  const kept = head.length + tail.length;
  assert.strictEqual(kept + Number(marker[1]), original.length, 'the marker counts exactly what was removed');
  assert.ok(original.startsWith(head) && original.endsWith(tail), 'head and tail are the original\'s');
  assert.strictEqual(head.length, Math.ceil(kept * 0.7));
  // At least 90% of what fits: keeping a ninth more would not fit under the same ceiling.
  const larger = Math.ceil(kept / 0.9) + 1;
  if (larger < original.length) {
    const now = measureMessage(last);
    const bigger = measureMessage({ ...last, content: cutText(original, larger) } as WireMessage);
    const tokens = calibratedTokens(trim.rawTokens - now.tokens + bigger.tokens, trim.nativeRawTokens, c.calibration);
    const bytes = trim.bytes - now.bytes + bigger.bytes;
    assert.ok(tokens > geometry.ceiling || bytes > budget.maxBytes, `kept ${kept} of ${original.length} characters, but ${larger} would still fit (${tokens}/${geometry.ceiling} tokens, ${bytes}/${budget.maxBytes} bytes)`);
  }
  // Whatever the route, its body carries that cut.
  assert.ok(JSON.stringify(prepared.body).includes(JSON.stringify(marker[0]).slice(1, -1)), `the ${c.route} body carries the cut text`);
}

const caseArb = (maxChars: number): fc.Arbitrary<Case> =>
  fc.record({
    blocks: fc.array(block, { minLength: 1, maxLength: 6 }),
    budget: fc.integer({ min: 8_000, max: 1_000_000 }),
    over: fc.double({ min: 1.2, max: 20, noNaN: true }),
    calibration: fc.double({ min: 0.7, max: 1.6, noNaN: true }),
    route: fc.constantFrom(...ROUTE_IDS),
    asToolResult: fc.boolean(),
  }).map(({ over, ...rest }) => ({ ...rest, chars: Math.min(maxChars, Math.round(rest.budget * 3 * over)) }));

describe('truncation keeps what fits, whatever the text', function () {
  this.timeout(240_000);

  it('the issue\'s case: a 2 MB JSON paste on a 128K model keeps most of the budget, not the marker alone', () => {
    const records = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: i, name: `record "${i}"`, path: `C:\\data\\${i}`, note: 'line one\nline two' }, null, 2));
    const paste = records.join(',\n');
    for (const route of ROUTE_IDS) {
      const prepared = prepare({ blocks: [], chars: 0, budget: 120_000, calibration: 1, route, asToolResult: false }, historyFor(paste, false));
      const { trim, geometry, budget } = prepared;
      // Whichever ceiling binds (for escaped JSON, the bytes) is nearly filled.
      const filled = Math.max(trim.estTokens / geometry.ceiling, trim.bytes / budget.maxBytes);
      assert.ok(filled > 0.95 && !trim.overCeiling, `${route}: sent ~${trim.estTokens}/${geometry.ceiling} tokens, ${trim.bytes}/${budget.maxBytes} bytes of a ${paste.length}-character paste`);
    }
  });

  it('random hard texts up to 2 MB, budgets 8K–1M, every route, user message or tool result', () => {
    fc.assert(fc.property(caseArb(2_000_000), check), { numRuns: runs(24), seed: 2121 });
  });

  it('a few runs at 20 MB', () => {
    fc.assert(fc.property(caseArb(20_000_000).map((c) => ({ ...c, chars: 20_000_000 })), check), { numRuns: runs(2), seed: 2122 });
  });
});
