/**
 * The token and byte budget of one request. usable = min(input limit, window − reserve): a model that takes fewer
 * prompt tokens than its window leaves (gpt-5.4-mini: 272,000 of 400,000) is trimmed to what it takes; the budget
 * override (opencode.maxInputTokens) replaces it; a byte ceiling sits next to it because gateways reject very large
 * bodies even under the token limit. See docs/budget.md for why the reserve is capped for small models.
 */
import type { ModelLimits } from '../types';
import { usableOf } from '../overflow/overflow';

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
 * to it (routes/sampling.ts withinRoom); at least 1, since a request already over the window fails anyway.
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
