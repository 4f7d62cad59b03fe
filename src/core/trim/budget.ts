/**
 * The token and byte budget of one request. usable = window − reserve; the budget override
 * (opencode.maxInputTokens) replaces it; a byte ceiling sits next to it because gateways reject very large bodies even
 * under the token limit. See docs/budget.md for why the reserve is capped for small models.
 */
import type { ModelLimits } from '../types';
import { usableTokens } from '../overflow/overflow';

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
  windowSource: 'model' | 'override' | 'fallback' | 'none';
  reserve: number;
  /** Tokens the request may use; Infinity when trimming is disabled. */
  tokens: number;
  maxBytes: number;
}

export function computeBudget(limits: ModelLimits, settings: BudgetSettings): Budget {
  const fromModel = limits.contextWindow && limits.contextWindow > 0 ? limits.contextWindow : undefined;
  const contextWindow = fromModel ?? (settings.contextLimitFallback > 0 ? settings.contextLimitFallback : undefined);
  const windowSource = fromModel ? 'model' : contextWindow ? 'fallback' : 'none';
  const reserve = contextWindow ? effectiveReserve(contextWindow, limits.maxOutputTokens, settings.reservedOutputTokens) : settings.reservedOutputTokens;
  let tokens = contextWindow ? usableTokens(contextWindow, reserve) : Infinity;
  if (settings.budgetOverrideTokens > 0) tokens = contextWindow ? Math.min(tokens, settings.budgetOverrideTokens) : settings.budgetOverrideTokens;
  const maxBytes = settings.maxRequestBytes > 0 ? settings.maxRequestBytes : Number.isFinite(tokens) ? Math.max(MIN_BYTE_CEILING, Math.round(BYTES_PER_TOKEN * tokens)) : Infinity;
  return { contextWindow, windowSource: settings.budgetOverrideTokens > 0 ? 'override' : windowSource, reserve, tokens, maxBytes };
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
