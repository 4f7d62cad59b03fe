/**
 * Property over random agent sessions on Chat Completions (real HTTP, fake server): the reasoning passed back
 * leaves the bytes of earlier turns unchanged from one request to the next — each body without its closing `]}`
 * is a byte prefix of the next one's — and every tool-call turn goes back with its reasoning, whatever the model
 * (an id no data lists, ids the data lists without `interleaved`, ids it marks), whether VS Code kept the thinking
 * part or not, across restarts, and after other conversations remembered many tool-call answers in between.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { ChatMessage } from '../core/types';
import type { FakeModel } from '../fakeServer/types';
import { agentStep, sentReasoningByCall, userText, type AgentStep } from './support/agentSession';
import { engineFor, MemoryStore } from './support/engineHarness';
import { assertReached, runs } from './support/propertyRuns';
import { useFakeServer } from './support/suiteHooks';
import { REASONING_MEMORY_BOUNDS } from '../core/convert/convertRequest';

/** An id no data lists; Zen ids listed on chat without `interleaved`; ids the data marks interleaved. */
const MODEL_IDS = ['mystery-thinker-2', 'glm-4.6', 'grok-code', 'kimi-k2', 'deepseek-v4-pro', 'glm-5.2'];
const model = (id: string): FakeModel => ({ id, contextWindow: 1_000_000, maxOutputTokens: 32_000, toolCalling: true });
/** Above the memory's per-answer bound: not remembered, so it goes back only when VS Code kept the thinking. */
const LONG_THOUGHT = 'A long thought about the whole code base. '.repeat(Math.ceil((REASONING_MEMORY_BOUNDS.maxChars + 1) / 43));

const stepArb = fc.record({
  reasoning: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 24, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }) }, { weight: 1, arbitrary: fc.constant(LONG_THOUGHT) }),
  calls: fc.integer({ min: 0, max: 2 }),
  keepThinking: fc.boolean(),
});
const turnArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 4 }),
  restartBefore: fc.boolean(),
  /** Tool-call answers other conversations remembered before this turn. */
  othersBefore: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_500 })),
});
const sessionArb = fc.record({ modelId: fc.constantFrom(...MODEL_IDS), turns: fc.array(turnArb, { minLength: 1, maxLength: 4 }) });

/** The steps of a turn with unique call ids; the last one answers in text (it ends the turn). */
function scripted(tag: string, t: number, steps: readonly { reasoning: string; calls: number; keepThinking: boolean }[]): AgentStep[] {
  return steps.map((s, i) => {
    const calls = i === steps.length - 1 ? 0 : Math.max(1, s.calls);
    return { reasoning: s.reasoning, keepThinking: s.keepThinking, callIds: Array.from({ length: calls }, (_, c) => `call_${tag}_${t}_${i}_${c}`), text: calls ? '' : `Done with turn ${t}.` };
  });
}

describe('passed-back reasoning keeps earlier bytes (property, real HTTP, fake server)', () => {
  const server = useFakeServer({ models: MODEL_IDS.map(model) });
  const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };

  it('each request is a byte prefix of the next, and every tool-call turn carries its reasoning', async function () {
    this.timeout(240_000);
    let session = 0;
    let evictingCases = 0;
    let longCases = 0;
    await fc.assert(
      fc.asyncProperty(sessionArb, async ({ modelId, turns }) => {
        server().reset();
        const tag = `s${session++}`;
        const store = new MemoryStore();
        let { engine } = engineFor(server().url, {}, store, fast);
        const history: ChatMessage[] = [];
        const expected = new Map<string, string | undefined>();
        for (const [t, turn] of turns.entries()) {
          if (turn.othersBefore > 0) {
            for (let k = 0; k < turn.othersBefore; k++) engine.reasoningMemory.remember([`other_${tag}_${t}_${k}`], `Another conversation's thought ${k}.`);
            store.update('opencode.reasoning', engine.reasoningMemory.toJSON());
            if (turn.othersBefore > 500) evictingCases++;
          }
          if (turn.restartBefore) ({ engine } = engineFor(server().url, {}, store, fast));
          history.push(userText(`task ${t + 1}`));
          if (turn.steps.some((s) => s.reasoning === LONG_THOUGHT)) longCases++;
          for (const step of scripted(tag, t, turn.steps)) {
            await agentStep(engine, server(), modelId, history, step);
            if (!step.callIds?.length) continue;
            const remembered = step.reasoning.length <= REASONING_MEMORY_BOUNDS.maxChars;
            expected.set(step.callIds[0], step.reasoning && (step.keepThinking || remembered) ? step.reasoning : undefined);
          }
        }
        const bodies = server().requests.map((r) => JSON.stringify(r.body));
        for (let i = 1; i < bodies.length; i++) {
          assert.ok(bodies[i - 1].endsWith(']}'), 'messages is the last field');
          const prefix = bodies[i - 1].slice(0, -2);
          if (!bodies[i].startsWith(prefix)) {
            let at = 0;
            while (bodies[i][at] === prefix[at]) at++;
            assert.fail(`${modelId}: request ${i + 1} changed the bytes of request ${i} at ${at}: …${prefix.slice(at - 60, at + 60)}… became …${bodies[i].slice(at - 60, at + 60)}…`);
          }
        }
        for (const [i, request] of server().requests.entries()) {
          for (const [callId, reasoning] of sentReasoningByCall(request.body)) assert.strictEqual(reasoning, expected.get(callId), `${modelId}, request ${i + 1}, ${callId}`);
        }
      }),
      { numRuns: runs(40) },
    );
    assertReached(evictingCases > 0, 'some sessions met more tool-call answers of other conversations than the memory once held');
    assertReached(longCases > 0, 'some answers thought longer than the memory keeps');
  });
});
