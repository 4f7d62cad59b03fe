/**
 * The one bound on a token limit that comes from outside (a `/models` window or output limit, model data, saved
 * state): what the fetch accepts, the saved list's check accepts too. A larger number is clamped to it, never
 * refused, so a model with an absurd window is listed at the bound instead of vanishing from the picker.
 */

/** Far above any real window (the largest known are ~10M tokens). */
export const MAX_TOKEN_LIMIT = 100_000_000;

/** A positive token limit as kept: floored, at most MAX_TOKEN_LIMIT; undefined when it is no positive number. */
export function clampedTokenLimit(value: number): number | undefined {
  // NaN and anything below 1 fail this; Infinity (a string "1e999") is clamped like any other huge number.
  if (!(value >= 1)) return undefined;
  return Math.min(MAX_TOKEN_LIMIT, Math.floor(value));
}
