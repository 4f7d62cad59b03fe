/**
 * VS Code's agent opens a chat with two user messages: its environment and workspace info, then the prompt. The
 * first request has nothing droppable (the info is the anchor, the prompt is always sent), so nothing is cut;
 * the next turns must not treat that as a cut after the prompt and drop turn 1's question (seen in the real
 * VS Code: "Dropped 1 old message(s)" on a 1M-token model with a 15K-token prompt). Random agent sessions with
 * that opening and a budget everything fits, replayed request by request through planTrim: every message is
 * sent every time, and each payload starts with the previous one.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { SizeMemo } from '../core/trim/messageSize';
import type { WireMessage } from '../core/wire/wireTypes';
import { defaultSettings, filler } from './support/trimHarness';
import { runs } from './support/propertyRuns';
import { planTrim } from '../core/trim/planTrim';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

type Step = { kind: 'turn'; words: number } | { kind: 'round'; calls: number; words: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('turn' as const), words: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('round' as const), calls: fc.integer({ min: 1, max: 3 }), words: fc.integer({ min: 1, max: 300 }) }),
);

function stepMessages(step: Step, n: number): WireMessage[] {
  if (step.kind === 'turn') return [{ role: 'assistant', content: `answer ${n} ${filler(step.words, n)}` }, { role: 'user', content: `<userRequest>question ${n + 2}</userRequest>` }];
  const ids = Array.from({ length: step.calls }, (_, k) => `call_${n}_${k}`);
  return [
    { role: 'assistant', content: null, tool_calls: ids.map((id) => ({ id, type: 'function' as const, function: { name: 'file_search', arguments: JSON.stringify({ query: id }) } })) },
    ...ids.map((id, k): WireMessage => ({ role: 'tool', tool_call_id: id, content: `result ${n}.${k} ${filler(step.words, n + k)}` })),
  ];
}

/** The history of each request, VS Code's agent's opening first: system, environment info, the first prompt. */
function histories(system: boolean, steps: readonly Step[]): WireMessage[][] {
  const messages: WireMessage[] = system ? [{ role: 'system', content: `You are an expert AI programming assistant. ${filler(400, 1)}` }] : [];
  messages.push({ role: 'user', content: `<environment_info>The user's current OS is: Linux</environment_info> ${filler(150, 2)}` });
  messages.push({ role: 'user', content: '<userRequest>question 1</userRequest>' });
  const out = [[...messages]];
  steps.forEach((step, n) => {
    messages.push(...stepMessages(step, n));
    out.push([...messages]);
  });
  return out;
}

describe("trim: VS Code's agent opening (environment info, then the prompt) with room for everything", () => {
  it('sends every message on every request, each payload starting with the previous one', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(stepArb, { minLength: 1, maxLength: 12 }), (system, steps) => {
        const states = new ConversationStates();
        const memo = new SizeMemo();
        const settings = { ...defaultSettings, budgetOverrideTokens: 500_000 };
        let before: WireMessage[] = [];
        for (const history of histories(system, steps)) {
          const plan = planTrim([...history], [], { settings, limits: { contextWindow: 1_000_000 }, calibration: 1, memo, states, log: new MemoryLogger() });
          assert.strictEqual(plan.trim.removed, 0, `dropped ${plan.trim.removed} of ${history.length} messages with room for all`);
          before.forEach((m, k) => assert.strictEqual(plan.trim.messages[k], m, `message ${k} of the previous payload is not sent first`));
          before = plan.trim.messages;
        }
      }),
      { numRuns: runs(60) },
    );
  });
});
