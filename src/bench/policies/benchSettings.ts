/**
 * The extension's settings and model limits for one regime, built through the same resolveSettings the
 * extension uses (so a typo here is a warning, and the benchmark refuses to run on a warning).
 */
import { resolveSettings, type Settings } from '../../core/config/settings';
import { computeBudget, type Budget } from '../../core/trim/budget';
import type { ModelLimits } from '../../core/types';
import type { RegimeSpec } from '../sessions/regimes';

/** `historyTrim.*` settings a sweep varies, keyed without the prefix (e.g. `cutStepTokens`). */
export type HistoryTrimOverrides = Partial<Record<'headroomRatio' | 'headroomMinTokens' | 'headroomMaxTokens' | 'cutStepTokens', number>>;

export function benchSettings(regime: RegimeSpec, overrides: HistoryTrimOverrides = {}): Settings {
  const values = new Map<string, unknown>([['maxInputTokens', regime.budgetTokens]]);
  for (const [key, value] of Object.entries(overrides)) values.set(`historyTrim.${key}`, value);
  return resolveSettings(
    (key) => values.get(key),
    (warning) => {
      throw new Error(`benchmark settings: ${warning}`);
    },
  );
}

export function benchLimits(regime: RegimeSpec): ModelLimits {
  return { contextWindow: regime.window, maxOutputTokens: regime.maxOutputTokens };
}

export function benchBudget(regime: RegimeSpec): Budget {
  return computeBudget(benchLimits(regime), benchSettings(regime));
}
