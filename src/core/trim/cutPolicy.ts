/**
 * Where the cut goes. Providers cache by exact prefix, so every move of the cut re-bills the whole
 * conversation; a cut that frees D tokens lasts about D / growth requests. So the cut holds until the
 * payload really reaches the budget (less a small margin for estimate error), then jumps a whole grid
 * step: grid = cut step + headroom. The leading extension spends the headroom as a low-water mark it
 * never fills; we spend it on a longer jump instead, which keeps more context on average AND moves the
 * cut less often (docs/history-trim.md has the arithmetic).
 */
import type { HistoryTrimSettings } from '../config/settings';

/** Share of the budget held back for estimator error; the overflow sensor corrects the rest. */
export const SAFETY_MARGIN_RATIO = 0.005;
export const MIN_SAFETY_MARGIN_TOKENS = 256;
/** Headroom, step and margin are each capped at this share of the budget, so small budgets stay usable. */
export const MAX_SHARE_OF_BUDGET = 0.1;

export interface CutGeometry {
  headroom: number;
  step: number;
  /** Tokens freed per cut move: step + headroom. */
  grid: number;
  margin: number;
  /** The payload may grow up to here before the cut moves. */
  ceiling: number;
}

export function cutGeometry(budgetTokens: number, settings: Omit<HistoryTrimSettings, 'enabled'>): CutGeometry {
  const cap = Math.floor(MAX_SHARE_OF_BUDGET * budgetTokens);
  const wanted = Math.round(settings.headroomRatio * budgetTokens);
  const headroom = Math.min(cap, Math.min(settings.headroomMaxTokens, Math.max(settings.headroomMinTokens, wanted)));
  const step = Math.min(cap, settings.cutStepTokens);
  const margin = Math.min(cap, Math.max(MIN_SAFETY_MARGIN_TOKENS, Math.round(SAFETY_MARGIN_RATIO * budgetTokens)));
  return { headroom, step, grid: Math.max(1, headroom + step), margin, ceiling: Math.max(0, budgetTokens - margin) };
}

/**
 * The grid is laid in raw estimator units so that a small change of the calibration factor does not
 * shift every grid line (and with it the cut). The factor is quantized for the same reason.
 */
export function rawGridSize(geometry: CutGeometry, calibration: number): number {
  const quantized = Math.max(0.25, Math.round(calibration * 20) / 20);
  return Math.max(1, geometry.grid / quantized);
}
