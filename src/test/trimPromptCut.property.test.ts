/**
 * A cut that lands at the current prompt (everything before it dropped, the prompt and its rounds sent) must hold
 * once that prompt is old: the next turn adds an answer and a short question, and its payload starts with the
 * previous one byte for byte — the old prompt is not dropped. (The cut was recorded just after the prompt, so the
 * next turn's hold dropped it: one cold request, logged as a move, after every such cut.)
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { SizeMemo } from '../core/trim/messageSize';
import type { WireMessage } from '../core/wire/wireTypes';
import { assertReached, runs } from './support/propertyRuns';
import { defaultSettings, filler, toolGroup } from './support/trimHarness';
import { planTrim } from '../core/trim/planTrim';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

interface Session {
  /** Each old answer's size as a multiple of the budget: none of them fits beside the current turn. */
  oldTurns: number[];
  prompt: number;
  rounds: number[];
  /** Room above the current turn, beyond the cut step and headroom. */
  slack: number;
}

const sessionArb: fc.Arbitrary<Session> = fc.record({
  oldTurns: fc.array(fc.double({ min: 1.1, max: 3, noNaN: true }), { minLength: 1, maxLength: 6 }),
  prompt: fc.integer({ min: 5, max: 1_500 }),
  rounds: fc.array(fc.integer({ min: 20, max: 800 }), { maxLength: 4 }),
  slack: fc.integer({ min: 0, max: 3_000 }),
});

/** The budget: the current turn with room for a short next turn, below which the old answers cannot fit. */
function budgetOf(session: Session): number {
  return session.prompt + session.rounds.reduce((a, b) => a + b + 60, 0) + 2_500 + session.slack;
}

function history(session: Session): { messages: WireMessage[]; prompt: number } {
  const budget = budgetOf(session);
  const messages: WireMessage[] = [{ role: 'system', content: 'You are a careful coding agent.' }, { role: 'user', content: 'ANCHOR: build the parser' }];
  session.oldTurns.forEach((times, n) => {
    if (n > 0) messages.push({ role: 'user', content: `question ${n} ${filler(20, n)}` });
    messages.push({ role: 'assistant', content: `answer ${n} ${filler(Math.round(times * budget), n)}` });
  });
  const prompt = messages.length;
  messages.push({ role: 'user', content: `PROMPT ${filler(session.prompt, 99)}` });
  session.rounds.forEach((tokens, n) => messages.push(...toolGroup(`call_${n}`, tokens, n)));
  return { messages, prompt };
}

describe('trim: a cut at the current prompt holds once the prompt is old', () => {
  it('the next turn sends the previous payload first, the old prompt included, without a cut move', () => {
    let reached = 0;
    fc.assert(
      fc.property(sessionArb, (session) => {
        const { messages, prompt } = history(session);
        const states = new ConversationStates();
        const memo = new SizeMemo();
        const budget = budgetOf(session);
        const settings = { ...defaultSettings, budgetOverrideTokens: budget, historyTrim: { ...defaultSettings.historyTrim, headroomMinTokens: 500, cutStepTokens: 1_000 } };
        const context = { settings, limits: { contextWindow: budget + 20_000 }, calibration: 1, memo, states, log: new MemoryLogger() };
        const first = planTrim([...messages], [], context);
        // Only requests whose cut landed at the prompt: head, then the prompt and everything after it.
        const atPrompt = [0, 1, ...Array.from({ length: messages.length - prompt }, (_, k) => prompt + k)];
        fc.pre(first.trim.removed > 0 && JSON.stringify(first.trim.sentIndices) === JSON.stringify(atPrompt) && !first.trim.overCeiling);
        reached++;
        const next = [...messages, { role: 'assistant' as const, content: 'Done.' }, { role: 'user' as const, content: 'thanks, and one more thing' }];
        const second = planTrim(next, [], context);
        first.trim.messages.forEach((m, k) => assert.deepStrictEqual(second.trim.messages[k], m, `message ${k} of the previous payload is not sent first`));
        assert.strictEqual(second.cutMoved, false, 'the cut held');
      }),
      { numRuns: runs(100) },
    );
    assertReached(reached >= 50, `only ${reached} run(s) cut at the prompt`);
  });
});
