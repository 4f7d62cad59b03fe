/** The lifetimes warming times itself by, from the providers' cache rules (core/cost/cacheRules.ts). */
import { CACHE_RULES } from '../cost/cacheRules';

export const BREAKPOINT_LIFETIME = {
  /** Anthropic's default breakpoint. */
  short: CACHE_RULES.anthropic5m.lifetimeMs,
  /** Anthropic's `ttl: "1h"`. */
  long: CACHE_RULES.anthropic1h.lifetimeMs,
  /** OpenAI's in-memory prefix (and Gemini's implicit cache, whose lifetime is not published): the low end. */
  inMemory: CACHE_RULES.openaiInMemory.lifetimeMs,
} as const;

/** Warm this long before the lifetime ends: room for a slow request, and for clocks that differ. */
export const WARM_LEAD_MS = 30_000;
