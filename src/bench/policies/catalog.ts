/** Every policy the benchmark runs: the comparison set, and a sweep of our two settings. */
import { leadingPolicy, leadingRuleOurEstimatorPolicy, minimalFitPolicy, noTrimPolicy } from './baselines';
import { oursPolicy } from './ours';
import type { Policy } from './policy';

export const OURS_DEFAULT = oursPolicy('ours', 'ours (defaults)');

/** Comparison order of the tables and the chart; noTrim is the cost baseline. */
export const MAIN_POLICIES: readonly Policy[] = [noTrimPolicy, minimalFitPolicy, leadingPolicy, leadingRuleOurEstimatorPolicy, OURS_DEFAULT];

/** Re-run with the text-only token count: no trimming (the cost baseline), the leading policy and rule, ours. */
export const TEXT_COUNT_POLICIES: readonly Policy[] = [noTrimPolicy, leadingPolicy, leadingRuleOurEstimatorPolicy, OURS_DEFAULT];

export const SWEEP_STEPS = [16_384, 32_768, 65_536] as const;
export const SWEEP_HEADROOM_RATIOS = [0, 0.03, 0.05] as const;
const DEFAULT_STEP = 32_768;
const DEFAULT_RATIO = 0.03;

export function sweepId(step: number, ratio: number): string {
  return step === DEFAULT_STEP && ratio === DEFAULT_RATIO ? OURS_DEFAULT.id : `ours-step${step / 1024}k-h${ratio}`;
}

/** The sweep without the default point, which is OURS_DEFAULT itself. A ratio of 0 also sets the minimum to 0. */
export function sweepPolicies(): Policy[] {
  const policies: Policy[] = [];
  for (const step of SWEEP_STEPS) {
    for (const ratio of SWEEP_HEADROOM_RATIOS) {
      if (sweepId(step, ratio) === OURS_DEFAULT.id) continue;
      const overrides = { cutStepTokens: step, headroomRatio: ratio, ...(ratio === 0 ? { headroomMinTokens: 0 } : {}) };
      policies.push(oursPolicy(sweepId(step, ratio), `ours, step ${step / 1024}K, headroom ${ratio}`, overrides));
    }
  }
  return policies;
}
