/**
 * The token and byte budget of one request. usable = window − reserved output (seed 000); a user
 * override replaces it; a byte ceiling sits next to it because gateways reject very large bodies even
 * under the token limit. See docs/budget.md for why the reserve is capped for small models.
 */
import type { ModelLimits } from '../types';
import { usableTokens } from '../overflow/overflow';

export const MIN_BYTE_CEILING = 512 * 1024;
/** Generous bytes-per-token: JSON-escaped code and CJK run 3.5–4.5 bytes per token. */
export const BYTES_PER_TOKEN = 4.5;

export interface BudgetSettings {
  reservedOutputTokens: number;
  maxInputTokens: number;
  maxRequestBytes: number;
  contextLimitFallback: number;
}

export interface Budget {
  /** The window the budget came from; undefined when trimming is disabled for an unknown model. */
  window: number | undefined;
  windowSource: 'model' | 'override' | 'fallback' | 'none';
  reserve: number;
  /** Tokens the request may use; Infinity when trimming is disabled. */
  tokens: number;
  maxBytes: number;
}

export function computeBudget(limits: ModelLimits, settings: BudgetSettings): Budget {
  const fromModel = limits.contextWindow && limits.contextWindow > 0 ? limits.contextWindow : undefined;
  const window = fromModel ?? (settings.contextLimitFallback > 0 ? settings.contextLimitFallback : undefined);
  const windowSource = fromModel ? 'model' : window ? 'fallback' : 'none';
  const reserve = window ? effectiveReserve(window, limits.maxOutputTokens, settings.reservedOutputTokens) : settings.reservedOutputTokens;
  let tokens = window ? usableTokens(window, reserve) : Infinity;
  if (settings.maxInputTokens > 0) tokens = window ? Math.min(tokens, settings.maxInputTokens) : settings.maxInputTokens;
  const maxBytes = settings.maxRequestBytes > 0 ? settings.maxRequestBytes : Number.isFinite(tokens) ? Math.max(MIN_BYTE_CEILING, Math.round(BYTES_PER_TOKEN * tokens)) : Infinity;
  return { window, windowSource: settings.maxInputTokens > 0 ? 'override' : windowSource, reserve, tokens, maxBytes };
}

/**
 * The output reserve never exceeds what the model can write, nor half its window: a 20,000-token
 * reserve on an 8K model would leave no room for any prompt at all.
 */
export function effectiveReserve(window: number, maxOutputTokens: number | undefined, configured: number): number {
  let reserve = configured;
  if (maxOutputTokens && maxOutputTokens > 0) reserve = Math.min(reserve, maxOutputTokens);
  return Math.min(reserve, Math.floor(window / 2));
}
