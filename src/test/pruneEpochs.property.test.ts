/**
 * Pruning in epochs on random agent sessions (support/agentSessionArbs.ts), request by request through planTrim,
 * the extension's own trim path. Checked on every request:
 *  - no move logged ⇒ the payload is the previous one plus messages at the end, byte for byte, and the pruned set
 *    is the same (pruning never touches bytes before the cut between moves);
 *  - the head (system prompt, anchor), the current prompt and the always-sent rounds are sent as they came in;
 *  - no tool group is split: every sent result follows its call, every sent call has all its results;
 *  - a pruned result keeps its call id and only its content changes, to the placeholder that names its tool;
 *  - a move that prunes or drops lands at or below budget − headroom (unless only the smallest safe history is left);
 *  - the same session replayed from a fresh state gives the same cuts, prunes and bytes.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { validTrimState } from '../core/request/savedRecords';
import { SizeMemo } from '../core/trim/messageSize';
import { placeholderOf } from '../core/trim/pruneResults';
import type { WireMessage } from '../core/wire/wireTypes';
import { agentHistories, agentSessionArb, type AgentSessionSpec } from './support/agentSessionArbs';
import { runs } from './support/propertyRuns';
import { defaultSettings } from './support/trimHarness';
import { planTrim, type TrimPlan } from '../core/trim/planTrim';
import { ConversationStates, type ConversationTrimState } from '../core/trim/trimState';
import { DEFAULT_KEEP_RECENT_ROUNDS, keptIndices, splitHistory } from '../core/trim/cut';
import { MemoryLogger } from './support/memoryLogger';

interface Step {
  plan: TrimPlan;
  bytes: string[];
}

/** `restartAt`: before that request, the trim states go through what a restart does (saved, validated, loaded). */
function replay(spec: AgentSessionSpec, prune: boolean, check?: (history: WireMessage[], now: Step, before: Step | undefined) => void, restartAt = -1): Step[] {
  let states = new ConversationStates();
  const memo = new SizeMemo();
  const settings = { ...defaultSettings, budgetOverrideTokens: spec.budget, historyTrim: { ...defaultSettings.historyTrim, pruneToolResults: prune, pruneProtectTokens: spec.protectTokens } };
  const steps: Step[] = [];
  for (const [n, history] of agentHistories(spec).entries()) {
    if (n === restartAt) states = restarted(states);
    const plan = planTrim([...history], [], { settings, limits: { contextWindow: 10_000_000 }, calibration: 1, memo, states, log: new MemoryLogger() });
    const now = { plan, bytes: plan.trim.messages.map((m) => JSON.stringify(m)) };
    check?.(history, now, steps[steps.length - 1]);
    steps.push(now);
  }
  return steps;
}

function restarted(states: ConversationStates): ConversationStates {
  const saved = JSON.parse(JSON.stringify(states.toJSON())) as Record<string, unknown>;
  const loaded = Object.fromEntries(Object.entries(saved).map(([id, state]) => [id, validTrimState(state)]));
  for (const [id, state] of Object.entries(loaded)) assert.ok(state, `the saved state of ${id} loads`);
  return ConversationStates.fromJSON(loaded as Record<string, ConversationTrimState>);
}

function checkStep(history: WireMessage[], now: Step, before: Step | undefined): void {
  const { plan } = now;
  const parts = splitHistory(history, DEFAULT_KEEP_RECENT_ROUNDS);
  const sent = plan.trim.sentIndices;
  const pruned: number[] = [];
  sent.forEach((inputIndex, k) => {
    const original = history[inputIndex];
    const message = plan.trim.messages[k];
    const whole = inputIndex < parts.headEnd || inputIndex === parts.prompt || inputIndex >= parts.currentTurnStart;
    if (JSON.stringify(original) === now.bytes[k]) return;
    assert.ok(!whole, `input #${inputIndex} (head, prompt or newest rounds) was changed`);
    assert.strictEqual(original.role, 'tool', `input #${inputIndex}: only tool results are pruned`);
    assert.deepStrictEqual(message, { role: 'tool', tool_call_id: (original as { tool_call_id: string }).tool_call_id, content: placeholderOf(history, inputIndex) });
    assert.match(String(message.content), /cleared by the OpenCode extension.*(read_file|run_command|grep)/);
    pruned.push(inputIndex);
  });
  assert.strictEqual(plan.pruned.results, pruned.length, 'the [history-trim] count is what was sent as placeholders');
  checkToolGroups(plan.trim.messages);
  const minimal = keptIndices(history.length, parts, parts.middle.length).length;
  if (plan.cutMoved && (plan.trim.removed > 0 || pruned.length > 0) && sent.length > minimal && !plan.trim.overCeiling) {
    assert.ok(plan.trim.estTokens <= spec(plan).lowWater, `a move landed at ${plan.trim.estTokens} > budget − headroom = ${spec(plan).lowWater}`);
  }
  if (!before) return;
  if (!plan.cutMoved) {
    assert.ok(now.bytes.length >= before.bytes.length, 'held: the payload only grows');
    before.bytes.forEach((b, k) => assert.strictEqual(now.bytes[k], b, `held: message ${k} of the previous payload changed`));
    assert.strictEqual(plan.pruned.results, before.plan.pruned.results, 'held: the pruned set is the same');
  } else {
    assert.ok(plan.trim.firstKept >= before.plan.trim.firstKept, 'the cut never moves back');
  }
}

function spec(plan: TrimPlan): { lowWater: number } {
  return { lowWater: plan.budget.tokens - plan.geometry.headroom };
}

function checkToolGroups(messages: readonly WireMessage[]): void {
  const open = new Set<string>();
  messages.forEach((m, k) => {
    if (m.role === 'tool') {
      assert.ok(open.delete(m.tool_call_id), `sent message ${k}: a result without its call`);
      return;
    }
    assert.strictEqual(open.size, 0, `sent message ${k}: a call without all its results`);
    if (m.role === 'assistant') for (const call of m.tool_calls ?? []) open.add(call.id);
  });
  assert.strictEqual(open.size, 0, 'the last call has all its results');
}

describe('pruning in epochs over random agent sessions', function () {
  this.timeout(240_000);

  it('holds byte for byte between moves, prunes only old results, keeps groups whole, lands low', () => {
    let pruning = 0;
    let sessions = 0;
    fc.assert(
      fc.property(agentSessionArb, (session) => {
        sessions++;
        if (replay(session, true, checkStep).some((s) => s.plan.pruned.results > 0)) pruning++;
      }),
      { numRuns: runs(60) },
    );
    // The generator reaches the ceiling: most sessions prune, so the checks above saw placeholders.
    assert.ok(pruning >= sessions / 2, `only ${pruning} of ${sessions} sessions pruned`);
  });

  it('the same session replays to the same cuts, prunes and bytes', () => {
    fc.assert(
      fc.property(agentSessionArb, (session) => {
        const a = replay(session, true);
        const b = replay(session, true);
        assert.deepStrictEqual(
          b.map((s) => [s.plan.trim.firstKept, s.plan.cutMoved, s.plan.pruned, s.bytes]),
          a.map((s) => [s.plan.trim.firstKept, s.plan.cutMoved, s.plan.pruned, s.bytes]),
        );
      }),
      { numRuns: runs(20) },
    );
  });

  it('a restart (state saved, validated, loaded) sends the same bytes as no restart', () => {
    fc.assert(
      fc.property(agentSessionArb, fc.nat(80), (session, at) => {
        const straight = replay(session, true);
        const restart = replay(session, true, undefined, at % straight.length);
        assert.deepStrictEqual(restart.map((s) => [s.plan.cutMoved, s.bytes]), straight.map((s) => [s.plan.cutMoved, s.bytes]));
      }),
      { numRuns: runs(15) },
    );
  });

  it('a saved pruned set loads only when it is ascending, inside the history and bounded', () => {
    const base = { lastRemoved: 2, lastSteps: 1, lastGrid: 100, lastInputLength: 10, extraSteps: 0 };
    assert.deepStrictEqual(validTrimState({ ...base, prunedAt: [3, 5] })?.prunedAt, [3, 5]);
    assert.deepStrictEqual(validTrimState(base)?.prunedAt, [], 'a state saved before pruning: none pruned');
    for (const prunedAt of [[5, 3], [3, 3], [10], [-1], [1.5], 'x', [{}]]) assert.strictEqual(validTrimState({ ...base, prunedAt }), undefined, JSON.stringify(prunedAt));
    assert.strictEqual(validTrimState({ ...base, lastInputLength: 30_000, prunedAt: Array.from({ length: 20_001 }, (_, i) => i) }), undefined, 'too many');
  });

  it('pruning off sends no placeholder', () => {
    fc.assert(
      fc.property(agentSessionArb, (session) => {
        for (const step of replay(session, false)) assert.strictEqual(step.plan.pruned.results, 0);
      }),
      { numRuns: runs(10) },
    );
  });
});
