/**
 * Random sessions for the trim's session-level property tests: long agent turns (one prompt,
 * many tool rounds), ordinary turns, random large tool outputs and pasted logs; and random calibration
 * sequences (random walks, jumps, values oscillating around a 0.05 rounding edge).
 */
import fc from 'fast-check';
import type { WireMessage } from '../../core/wire/wireTypes';
import { filler } from './trimHarness';

const CJK = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经';

export type StepSpec =
  | { kind: 'round'; outputs: number[]; json: boolean }
  | { kind: 'turn'; answer: number; prompt: number; cjk: boolean };

export interface SessionSpec {
  budget: number;
  system: boolean;
  steps: StepSpec[];
}

/** Output sizes as shares of the budget: mostly small, now and then one larger than the whole budget. */
const outputShare = fc.oneof(
  { weight: 12, arbitrary: fc.double({ min: 0.002, max: 0.05, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: 0.05, max: 0.3, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 0.3, max: 1.5, noNaN: true }) },
);

const stepArb = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('round' as const), outputs: fc.array(outputShare, { minLength: 1, maxLength: 3 }), json: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('turn' as const),
      answer: fc.double({ min: 0.001, max: 0.03, noNaN: true }),
      prompt: fc.oneof({ weight: 8, arbitrary: fc.double({ min: 0.0005, max: 0.02, noNaN: true }) }, { weight: 1, arbitrary: fc.double({ min: 0.5, max: 2.5, noNaN: true }) }),
      cjk: fc.boolean(),
    }),
  },
);

export const sessionArb: fc.Arbitrary<SessionSpec> = fc.record({
  budget: fc.integer({ min: 12_000, max: 48_000 }),
  system: fc.boolean(),
  steps: fc.array(stepArb, { minLength: 25, maxLength: 70 }),
});

const clampFactor = (f: number): number => Math.min(2.5, Math.max(0.5, f));

export const calibrationArb: fc.Arbitrary<number[]> = fc.oneof(
  fc.tuple(fc.double({ min: 0.7, max: 1.6, noNaN: true }), fc.array(fc.double({ min: -0.03, max: 0.03, noNaN: true }), { minLength: 5, maxLength: 80 })).map(([start, deltas]) => {
    let f = start;
    return deltas.map((d) => (f = clampFactor(f + d)));
  }),
  fc.tuple(fc.integer({ min: 14, max: 34 }), fc.double({ min: 0.0005, max: 0.012, noNaN: true }), fc.array(fc.boolean(), { minLength: 4, maxLength: 40 })).map(([edge, delta, signs]) =>
    signs.map((up) => edge * 0.05 + 0.025 + (up ? delta : -delta)),
  ),
  fc.array(fc.constantFrom(0.8, 1, 1.27, 1.28, 1.6, 2.2), { minLength: 1, maxLength: 20 }),
);

function cjkText(tokens: number, seed: number): string {
  let out = '';
  for (let i = 0; i < tokens; i++) out += CJK[(i * 31 + seed * 17) % CJK.length];
  return out;
}

let callIds = 0;

function stepMessages(step: StepSpec, budget: number, seed: number): WireMessage[] {
  const tokens = (share: number): number => Math.max(1, Math.round(share * budget));
  if (step.kind === 'turn') {
    const prompt = step.cjk ? cjkText(tokens(step.prompt), seed) : `paste ${seed}\n${filler(tokens(step.prompt), seed)}`;
    return [{ role: 'assistant', content: `answer ${seed} ${filler(tokens(step.answer), seed + 1)}` }, { role: 'user', content: prompt }];
  }
  const ids = step.outputs.map(() => `call_${callIds++}`);
  return [
    { role: 'assistant', content: null, tool_calls: ids.map((id, k) => ({ id, type: 'function' as const, function: { name: 'run', arguments: JSON.stringify({ step: seed, k }) } })) },
    ...ids.map((id, k): WireMessage => {
      const text = `output ${seed}.${k}\n${filler(tokens(step.outputs[k]), seed + k)}`;
      return { role: 'tool', tool_call_id: id, content: step.json ? JSON.stringify({ stdout: text, code: 0 }) : text };
    }),
  ];
}

/** The history of each request: request n sends everything up to step n (the same message objects). */
export function materializeSteps(spec: SessionSpec): WireMessage[][] {
  const messages: WireMessage[] = spec.system ? [{ role: 'system', content: `You are a coding agent. ${filler(200, 1)}` }] : [];
  messages.push({ role: 'user', content: `ANCHOR: the task. ${filler(100, 2)}` });
  messages.push({ role: 'assistant', content: 'On it.' }, { role: 'user', content: 'Run the suite and fix what fails.' });
  const histories: WireMessage[][] = [];
  spec.steps.forEach((step, n) => {
    messages.push(...stepMessages(step, spec.budget, n));
    histories.push([...messages]);
  });
  return histories;
}
