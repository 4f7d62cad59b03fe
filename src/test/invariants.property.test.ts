/**
 * Invariants under random input, end to end: random conversations (tool groups with parallel calls,
 * damaged tool pairs, optional system prompt), random trim settings and budgets, and random faults queued
 * before each request — through the ChatEngine over real HTTP. Checked on what the fake server RECEIVED:
 * no orphaned tool call or result, the anchor and the current turn always there, never over budget
 * without the ERROR line, and the recorded session replays to the same cuts from a warm memo as from a cold one.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { startFakeServer, type FakeServer, type FaultSpec } from '../fakeServer';
import { resolveSettings } from '../core/config/settings';
import { ChatEngine } from '../core/request/chatEngine';
import type { PreparedRequest } from '../core/request/prepareRequest';
import { UserFacingError } from '../core/request/userFacingError';
import { measureMessage, measureTools, SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage, ChatTool } from '../core/types';
import type { WireMessage } from '../core/wire/wireTypes';
import { replaySession } from '../replay/replaySession';
import { MemoryStore, preparedBy } from './support/engineHarness';
import { filler } from './support/trimHarness';
import { assertToolPairs } from './support/toolPairs';
import { runs } from './support/propertyRuns';
import { MemoryLogger } from './support/memoryLogger';

const TOOLS: ChatTool[] = [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
/** ~2,500 tokens of tool schemas: the trim can neither drop nor truncate them, so small budgets go over. */
const MANY_TOOLS: ChatTool[] = [...TOOLS, ...Array.from({ length: 30 }, (_, i) => ({ name: `tool_${i}`, description: filler(70, i), inputSchema: { type: 'object' } }))];
const OVER_BUDGET = '[history-trim] Over budget';

const unitArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), tokens: fc.integer({ min: 1, max: 1_500 }) }),
  fc.record({ kind: fc.constant('assistant' as const), tokens: fc.integer({ min: 1, max: 1_500 }) }),
  fc.record({ kind: fc.constant('tools' as const), calls: fc.integer({ min: 1, max: 4 }), tokens: fc.integer({ min: 1, max: 3_000 }), damage: fc.constantFrom('none', 'none', 'drop-result', 'drop-call') }),
);
type UnitSpec = typeof unitArb extends fc.Arbitrary<infer T> ? T : never;

const faultArb: fc.Arbitrary<FaultSpec> = fc.oneof(
  fc.constantFrom<FaultSpec>(
    ...(['status-500', 'status-502', 'status-503', 'reset-before-first-byte', 'cut-after-text', 'cut-in-tool-call', 'malformed-chunk', 'no-done', 'empty-stream', 'invalid-tool-json', 'think-tags', 'reasoning-only'] as const).map((name) => ({ name })),
    { name: 'status-429', seconds: 0 },
  ),
  fc.integer({ min: 3_000, max: 40_000 }).map((limit): FaultSpec => ({ name: 'context-length-400', limit })),
);

const sessionArb = fc.record({
  system: fc.boolean(),
  manyTools: fc.constantFrom(false, false, false, true),
  /** Large anchors and current turns reach the truncation and the over-budget ERROR paths. */
  anchorTokens: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4_000 })),
  currentTokens: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8_000 })),
  units: fc.array(unitArb, { minLength: 1, maxLength: 14 }),
  /** Where each request cuts the growing unit list (sorted: history only grows). */
  requestAt: fc.array(fc.integer({ min: 0, max: 14 }), { minLength: 1, maxLength: 3 }),
  faults: fc.array(fc.array(faultArb, { maxLength: 2 }), { minLength: 3, maxLength: 3 }),
  settings: fc.record({
    maxInputTokens: fc.oneof(fc.constant(0), fc.integer({ min: 1_500, max: 30_000 })),
    maxRequestBytes: fc.oneof(fc.constant(0), fc.integer({ min: 4_000, max: 200_000 })),
    contextWindow: fc.integer({ min: 8_000, max: 64_000 }),
    'historyTrim.enabled': fc.constantFrom(true, true, true, false),
    'historyTrim.headroomRatio': fc.double({ min: 0, max: 0.5, noNaN: true }),
    'historyTrim.headroomMinTokens': fc.integer({ min: 0, max: 20_000 }),
    'historyTrim.headroomMaxTokens': fc.integer({ min: 0, max: 40_000 }),
    'historyTrim.cutStepTokens': fc.integer({ min: 0, max: 40_000 }),
  }),
});
type Session = typeof sessionArb extends fc.Arbitrary<infer T> ? T : never;

function text(role: 'user' | 'assistant' | 'system', value: string): ChatMessage {
  return { role, parts: [{ kind: 'text', text: value }] };
}

/** VS Code-shaped messages: tool calls in assistant messages, their results in the next user message. */
function unitMessages(unit: UnitSpec, seed: number): ChatMessage[] {
  if (unit.kind !== 'tools') return [text(unit.kind, `${unit.kind} ${seed} ${filler(unit.tokens, seed)}`)];
  const ids = Array.from({ length: unit.calls }, (_, k) => `call_${seed}_${k}`);
  const calls = ids.map((callId) => ({ kind: 'toolCall' as const, callId, name: 'read_file', input: { path: `src/${callId}.ts` } }));
  const results = ids.map((callId, k) => ({ kind: 'toolResult' as const, callId, text: filler(Math.ceil(unit.tokens / unit.calls), seed + k) }));
  if (unit.damage === 'drop-result') results.pop();
  if (unit.damage === 'drop-call') calls.shift();
  return [{ role: 'assistant', parts: calls }, { role: 'user', parts: results }];
}

function conversation(session: Session, upTo: number, turn: number): ChatMessage[] {
  const head = session.system ? [text('system', 'You are a careful coding agent.')] : [];
  const units = session.units.slice(0, upTo).flatMap((unit, i) => unitMessages(unit, i));
  const anchor = `ANCHOR: build the parser ${filler(session.anchorTokens, 1)}`.trim();
  const current = `CURRENT turn ${turn} ${filler(session.currentTokens, turn)}`.trim();
  return [...head, text('user', anchor), ...units, text('user', current)];
}

/** A message's text starts as written, or was shortened by the oversized-message truncation (with its marker). */
function sentText(message: WireMessage | undefined, opening: string): boolean {
  const content = String(message?.content ?? '');
  return content.startsWith(opening) || content.includes('characters removed by the OpenCode extension');
}

interface Attempt {
  prepared: PreparedRequest;
  calibration: number;
  /** An ERROR [history-trim] Over budget line was written when this attempt's request was prepared. */
  overBudgetLogged: boolean;
}

/** The payload as sent, measured on its own: calibrated tokens and bytes against the budget in force. */
function overBudget(sent: WireMessage[], attempt: Attempt): boolean {
  if (!Number.isFinite(attempt.prepared.budget.tokens)) return false; // historyTrim.enabled = false: no budget
  const tools = measureTools(attempt.prepared.tools);
  const sizes = sent.map((message) => measureMessage(message));
  const raw = sizes.reduce((t, s) => t + s.tokens, tools.tokens);
  const bytes = sizes.reduce((t, s) => t + s.bytes, tools.bytes);
  return Math.ceil(raw * attempt.calibration) > attempt.prepared.geometry.ceiling || bytes > attempt.prepared.budget.maxBytes;
}

async function runSession(server: FakeServer, session: Session): Promise<void> {
  server.reset();
  const log = new MemoryLogger();
  const values: Record<string, unknown> = { baseUrl: server.url, maxRetries: 3, ...session.settings };
  const settings = resolveSettings((key) => values[key], () => undefined);
  const attempts: Attempt[] = [];
  const turnOf: number[] = [];
  let turnNow = 0;
  let linesSeen = 0;
  const engine: ChatEngine = new ChatEngine({
    log,
    store: new MemoryStore(),
    settings: () => settings,
    apiKey: async () => undefined,
    timing: { sleep: async () => undefined, random: () => 0.5 },
    onAttempt: (prepared) => {
      const fresh = log.lines.slice(linesSeen);
      linesSeen = log.lines.length;
      turnOf.push(turnNow);
      // A retry re-sends the same prepared request; its ERROR line was written once, when it was prepared.
      const previous = attempts.at(-1);
      const logged = previous?.prepared === prepared ? previous.overBudgetLogged : fresh.some((l) => l.level === 'error' && l.message.startsWith(OVER_BUDGET));
      // It was also measured with the calibration in force when it was prepared: a failed attempt that brought usage
      // may have moved the factor since, and a retry re-sends the same bytes (it is not trimmed again).
      const calibration = previous?.prepared === prepared ? previous.calibration : engine.calibrations.factor('fake-large');
      attempts.push({ prepared, calibration, overBudgetLogged: logged });
    },
  });
  const limits = { contextWindow: session.settings.contextWindow, maxOutputTokens: 4_000 };
  const points = [...session.requestAt].sort((a, b) => a - b);
  for (const [turn, upTo] of points.entries()) {
    turnNow = turn;
    for (const fault of session.faults[turn]) server.enqueueFault(fault);
    const messages = conversation(session, upTo, turn);
    await engine.run({ purpose: 'conversation', modelId: 'fake-large', messages, tools: session.manyTools ? MANY_TOOLS : TOOLS }, limits, () => undefined, new AbortController().signal).catch((error: unknown) => {
      if (!(error instanceof UserFacingError)) throw error;
    });
  }

  const bodies = server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);
  assert.strictEqual(bodies.length, attempts.length, 'one HTTP request per attempt');
  bodies.forEach((body, i) => {
    const sent = body.messages as WireMessage[];
    const attempt = attempts[i];
    assert.deepStrictEqual(sent, attempt.prepared.trim.messages, 'the server received what was prepared');
    assertToolPairs(sent);
    const { input, trim } = attempt.prepared;
    const anchorAt = input.findIndex((m) => m.role !== 'system');
    assert.ok(trim.sentIndices.includes(anchorAt) && trim.sentIndices.at(-1) === input.length - 1, 'the anchor and the current turn are sent');
    assert.ok(sentText(sent[trim.sentIndices.indexOf(anchorAt)], 'ANCHOR'), 'the anchor is sent as the first non-system message');
    assert.ok(sentText(sent.at(-1), `CURRENT turn ${turnOf[i]}`), 'the current turn is sent, last');
    if (session.system) assert.deepStrictEqual(sent[0], { role: 'system', content: 'You are a careful coding agent.' });
    if (overBudget(sent, attempt)) assert.ok(attempt.overBudgetLogged, `request ${i} was over budget without the ERROR line`);
  });

  const recorded = attempts.map((a) => ({ messages: a.prepared.input, tools: a.prepared.tools }));
  const replay = (memo?: SizeMemo) => replaySession(recorded, { settings, limits, modelId: 'fake-large', memo }).steps.map((s) => [s.removed, s.sentIndices, s.cutMoved]);
  // The warm memo has measured this session once already (fresh copies, as VS Code sends them after a restart).
  const warm = new SizeMemo();
  replaySession(structuredClone(recorded), { settings, limits, modelId: 'fake-large', memo: warm });
  assert.deepStrictEqual(replay(warm), replay(), 'a replay from a warm memo gives the same cuts as from a cold one');
}

describe('invariants under random conversations, settings and faults (engine, real HTTP)', function () {
  this.timeout(60_000);
  let server: FakeServer;
  before(async () => {
    server = await startFakeServer();
  });
  after(() => server.close());

  it('never sends an orphan, always sends anchor and current turn, never exceeds the budget silently, replays deterministically', async () => {
    await fc.assert(
      fc.asyncProperty(sessionArb, (session) => runSession(server, session)),
      { numRuns: runs(50), ...(process.env.INVARIANTS_SEED ? { seed: Number(process.env.INVARIANTS_SEED) } : {}) },
    );
  });
});

describe('the byte ceiling after truncation (docs/issues/007-over-byte-ceiling-sent-silently.md)', () => {
  let server: FakeServer;
  before(async () => {
    server = await startFakeServer();
  });
  after(() => server.close());

  // Found by the property above once opencode.maxRequestBytes was part of its settings.
  it('truncates an oversized current turn until the body fits the byte ceiling too, not just the token ceiling', async () => {
    const log = new MemoryLogger();
    const values: Record<string, unknown> = {
      baseUrl: server.url,
      maxInputTokens: 1_500,
      maxRequestBytes: 4_000,
      'historyTrim.headroomRatio': 0,
      'historyTrim.headroomMinTokens': 0,
      'historyTrim.headroomMaxTokens': 0,
      'historyTrim.cutStepTokens': 0,
    };
    const settings = resolveSettings((key) => values[key], () => undefined);
    const engine = new ChatEngine({ log, store: new MemoryStore(), settings: () => settings, apiKey: async () => undefined });
    const messages = [text('user', 'ANCHOR: build the parser'), text('assistant', `assistant 0 ${filler(1, 0)}`), text('user', `CURRENT turn 0 ${filler(1_289, 0)}`)];
    const prepared = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages, tools: TOOLS }, { contextWindow: 8_000, maxOutputTokens: 4_000 });
    assert.deepStrictEqual((server.requests.at(-1)!.body as { messages: unknown[] }).messages, prepared.trim.messages, 'what went out is the truncated history');
    const bytes = prepared.trim.messages.reduce((total, m) => total + Buffer.byteLength(JSON.stringify(m)), 0) + Buffer.byteLength(JSON.stringify(TOOLS));
    assert.ok(bytes <= 4_000, `sent ${bytes} bytes against a 4,000-byte ceiling`);
    assert.strictEqual(prepared.trim.overCeiling, false);
    assert.ok(!log.messages('error').some((m) => m.startsWith(OVER_BUDGET)), 'nothing over budget, so no ERROR line');
    assert.ok(log.messages('warn').some((m) => m.startsWith('[history-trim] Truncated a user message')), 'the truncation is logged');
    assert.strictEqual((prepared.trim.messages[0].content as string), 'ANCHOR: build the parser', 'the anchor is kept whole');
  });
});
