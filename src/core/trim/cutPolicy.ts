/**
 * Where the cut goes. Providers cache by exact prefix, so every move of the cut re-bills the whole
 * conversation; a cut that frees D tokens lasts about D / growth requests. So the cut holds until the
 * payload really reaches the budget (less a small margin for estimate error), then makes a whole grid
 * move: grid = cut step + headroom. The leading extension spends the headroom as a low-water mark it
 * never fills; we spend it on a longer jump instead, which keeps more context on average AND moves the
 * cut less often (docs/history-trim.md has the arithmetic).
 */
import type { HistoryTrimSettings } from '../config/settings';

/** Share of the budget held back for estimator error at least; the overflow sensor corrects the rest. */
export const SAFETY_MARGIN_RATIO = 0.005;
/**
 * The margin follows the model's calibration spread s (the recent peak of reported ÷ predicted − 1): μ =
 * 1.5 s, up to 3% of the budget. Holding at B·(1 − μ), a request whose under-estimate e ≤ μ reports at most
 * B·(1 − μ)(1 + e) < B; the 1.5 covers a new peak up to half again the largest seen. Beyond 3% the overflow
 * sensor and the 400 retry take over.
 */
export const SPREAD_COVER = 1.5;
export const MAX_MARGIN_RATIO = 0.03;
export const MIN_SAFETY_MARGIN_TOKENS = 256;
/** Headroom, cut step and margin are each capped at this share of the budget, so small budgets stay usable. */
export const MAX_SHARE_OF_BUDGET = 0.1;

export interface CutGeometry {
  headroom: number;
  /** Tokens (never a count): opencode.historyTrim.cutStepTokens, capped. */
  cutStep: number;
  /** Tokens one grid move drops: cut step + headroom. */
  grid: number;
  margin: number;
  /** The payload may grow up to here before the cut moves. */
  ceiling: number;
}

/** The margin's share of the budget for a calibration spread (see MAX_MARGIN_RATIO). */
export function marginRatio(spread: number): number {
  return Math.min(MAX_MARGIN_RATIO, Math.max(SAFETY_MARGIN_RATIO, Number.isFinite(spread) ? SPREAD_COVER * spread : 0));
}

export function cutGeometry(budgetTokens: number, settings: Omit<HistoryTrimSettings, 'enabled'>, calibrationSpread = 0): CutGeometry {
  const cap = Math.floor(MAX_SHARE_OF_BUDGET * budgetTokens);
  const wanted = Math.round(settings.headroomRatio * budgetTokens);
  const headroom = Math.min(cap, Math.min(settings.headroomMaxTokens, Math.max(settings.headroomMinTokens, wanted)));
  const cutStep = Math.min(cap, settings.cutStepTokens);
  const margin = Math.min(cap, Math.max(MIN_SAFETY_MARGIN_TOKENS, Math.ceil(marginRatio(calibrationSpread) * budgetTokens)));
  return { headroom, cutStep, grid: Math.max(1, headroom + cutStep), margin, ceiling: Math.max(0, budgetTokens - margin) };
}

/** A frozen grid is re-laid only when the calibration factor has drifted more than this from the one it was laid with. */
export const REGRID_DRIFT = 0.1;

export interface FrozenGrid {
  /** The grid in raw estimator units; 0 = none frozen yet. */
  rawGrid: number;
  budget: number;
  factor: number;
}

/**
 * The grid in raw estimator units. Once a conversation has cut, its grid is frozen: a small calibration
 * change must not shift every grid line (and with it the cut). It is laid afresh only when the budget
 * changes or the factor drifts more than REGRID_DRIFT; the cut still never moves back (pickCut's minDrop).
 */
export function gridFor(geometry: CutGeometry, budgetTokens: number, calibration: number, frozen: FrozenGrid | undefined): FrozenGrid {
  const factor = calibration > 0 ? calibration : 1;
  if (frozen && frozen.rawGrid > 0 && frozen.budget === budgetTokens && Math.abs(factor / frozen.factor - 1) <= REGRID_DRIFT) return frozen;
  return { rawGrid: Math.max(1, geometry.grid / factor), budget: budgetTokens, factor };
}
