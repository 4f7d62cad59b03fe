/**
 * How much one request may send. The budget: usable = min(input limit, window − reserve): a model that takes fewer
 * prompt tokens than its window leaves (gpt-5.4-mini: 272,000 of 400,000) is trimmed to what it takes; the budget
 * override (opencode.maxInputTokens) replaces it; a byte ceiling sits next to it because gateways reject very large
 * bodies even under the token limit (docs/budget.md says why the reserve is capped for small models). Inside it, the
 * cut geometry: the margin, the ceiling, the headroom and the grid. Beside it, the overflow sensor: after each
 * response, did the prompt reach the same usable size? (It reads usage, decides, changes nothing; here because it is
 * the budget's own rule read back from the usage.)
 *
 * Where the cut goes: providers cache by exact prefix, so every move of the cut re-bills the whole conversation; a
 * cut that frees D tokens lasts about D / growth requests. So the cut holds until the payload really reaches the
 * budget (less a small margin for estimate error), then makes a whole grid move: grid = cut step + headroom. The
 * leading extension spends the headroom as a low-water mark it never fills; we spend it on a longer jump instead,
 * which keeps more context on average AND moves the cut less often (docs/history-trim.md has the arithmetic).
 */
import type { ModelLimits, NormalizedUsage } from '../types';
import type { HistoryTrimSettings } from '../config/settings';

export const MIN_BYTE_CEILING = 512 * 1024;
/** Generous bytes-per-token: JSON-escaped code and CJK run 3.5–4.5 bytes per token. */
export const BYTES_PER_TOKEN = 4.5;

export interface BudgetSettings {
  reservedOutputTokens: number;
  /** opencode.maxInputTokens: > 0 replaces the budget. */
  budgetOverrideTokens: number;
  maxRequestBytes: number;
  contextLimitFallback: number;
}

export interface Budget {
  /** The window the budget came from; undefined when trimming is disabled for an unknown model. */
  contextWindow: number | undefined;
  /** `estimate`: the window and input limit are those of the newest model of the family (models/estimate.ts). */
  windowSource: 'model' | 'estimate' | 'override' | 'fallback' | 'none';
  /** The model whose limits stand in, when estimated. */
  estimatedFrom?: string;
  /** The model's input limit (data, estimate or learned), when below what the window leaves. */
  inputLimit?: number;
  reserve: number;
  /** Tokens the request may use; Infinity when trimming is disabled. */
  tokens: number;
  maxBytes: number;
}

export function computeBudget(limits: ModelLimits, settings: BudgetSettings): Budget {
  const fromModel = positive(limits.contextWindow);
  const contextWindow = fromModel ?? (settings.contextLimitFallback > 0 ? settings.contextLimitFallback : undefined);
  const estimated = fromModel !== undefined && limits.estimatedFrom !== undefined;
  const windowSource = estimated ? 'estimate' : fromModel ? 'model' : contextWindow ? 'fallback' : 'none';
  const reserve = contextWindow ? effectiveReserve(contextWindow, limits.maxOutputTokens, settings.reservedOutputTokens) : settings.reservedOutputTokens;
  const inputLimit = positive(limits.inputLimit);
  let tokens = contextWindow ? usableOf(contextWindow, reserve, inputLimit) : inputLimit ?? Infinity;
  if (settings.budgetOverrideTokens > 0) tokens = Math.min(tokens, settings.budgetOverrideTokens);
  const maxBytes = settings.maxRequestBytes > 0 ? settings.maxRequestBytes : Number.isFinite(tokens) ? Math.max(MIN_BYTE_CEILING, Math.round(BYTES_PER_TOKEN * tokens)) : Infinity;
  return {
    contextWindow,
    windowSource: settings.budgetOverrideTokens > 0 ? 'override' : windowSource,
    ...(estimated ? { estimatedFrom: limits.estimatedFrom } : {}),
    ...(inputLimit !== undefined ? { inputLimit } : {}),
    reserve,
    tokens,
    maxBytes,
  };
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}

/**
 * The output tokens a request may ask for so that input + output stays within the window, whatever the route:
 * the window less the request's estimated input and less the margin the trim keeps for its estimate's error
 * (budget − ceiling). A request at the ceiling gets the reserve (window − budget); a shorter one more, up to
 * the model's max. Undefined without a bounded budget (trim off) or a known window. Bodies clamp their max output
 * to it (routes/requestParts.ts withinRoom); at least 1, since a request already over the window fails anyway.
 */
export function outputRoom(budget: Pick<Budget, 'contextWindow' | 'tokens'>, ceiling: number, estTokens: number): number | undefined {
  if (!budget.contextWindow || !Number.isFinite(budget.tokens)) return undefined;
  const margin = Math.max(0, budget.tokens - ceiling);
  return Math.max(1, Math.floor(budget.contextWindow - Math.max(0, estTokens) - margin));
}

/**
 * The output reserve never exceeds what the model can write, nor half its window: a 20,000-token
 * reserve on an 8K model would leave no room for any prompt at all.
 */
export function effectiveReserve(contextWindow: number, maxOutputTokens: number | undefined, configured: number): number {
  let reserve = configured;
  if (maxOutputTokens && maxOutputTokens > 0) reserve = Math.min(reserve, maxOutputTokens);
  return Math.min(reserve, Math.floor(contextWindow / 2));
}

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
 * changes or the factor drifts more than REGRID_DRIFT; the cut still never moves back (pickCut's minDrop, cut.ts).
 */
export function gridFor(geometry: CutGeometry, budgetTokens: number, calibration: number, frozen: FrozenGrid | undefined): FrozenGrid {
  const factor = calibration > 0 ? calibration : 1;
  if (frozen && frozen.rawGrid > 0 && frozen.budget === budgetTokens && Math.abs(factor / frozen.factor - 1) <= REGRID_DRIFT) return frozen;
  return { rawGrid: Math.max(1, geometry.grid / factor), budget: budgetTokens, factor };
}

/** Room kept free for the answer, so a long reply (reasoning, tool-call JSON) is not cut mid-way. */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 20_000;

/** Tokens the prompt may fill: the window minus the output reserve, never negative (small models). */
export function usableTokens(contextWindow: number, reserve = DEFAULT_RESERVED_OUTPUT_TOKENS): number {
  return Math.max(0, contextWindow - reserve);
}

/** What the prompt may fill: window − reserve, or the model's input limit when that is smaller (computeBudget above). */
export function usableOf(contextWindow: number, reserve = DEFAULT_RESERVED_OUTPUT_TOKENS, inputLimit?: number): number {
  return Math.min(usableTokens(contextWindow, reserve), inputLimit !== undefined && inputLimit > 0 ? inputLimit : Infinity);
}

/**
 * Everything the prompt occupied is `contextTokens` (normalizeUsage adds cache reads and writes). Output is
 * excluded: it lives in the reserve now, and is counted as input once it joins the history.
 */
export function isOverflowing(u: NormalizedUsage, contextWindow: number, reserve?: number, inputLimit?: number): boolean {
  // >=, not >: reaching the usable size exactly already leaves no room for the next turn's input.
  return u.contextTokens >= usableOf(contextWindow, reserve, inputLimit);
}

/** `[overflow] used=U usable=S limit=L reserved=R` (a log contract: `limit=` is the window, `reserved=` the reserve). */
export function overflowLine(used: number, usable: number, contextWindow: number, reserve: number): string {
  return `[overflow] used=${used} usable=${usable} limit=${contextWindow} reserved=${reserve}`;
}
