/**
 * How long each provider keeps a cached prefix and what writing and reading it costs, relative to the input
 * price (docs/prompt-cache.md has the sources). Used by the computed cost, the warming timer and the bench.
 *
 * - Anthropic: a breakpoint lives 5 minutes (refreshed by every read); `ttl: "1h"` an hour. Writes cost 1.25×
 *   input (5 minutes) or 2× (1 hour); reads 0.1×.
 * - OpenAI: a prefix held in memory is usually cleared after 5–10 minutes idle (always within an hour);
 *   `prompt_cache_retention: "24h"` keeps it up to 24 hours at the same price. Writes cost the input price;
 *   reads are the model's cached-input price (0.1× for current GPT models).
 */

/** Anthropic's 1-hour cache writes cost this many times the input price. */
export const LONG_WRITE_MULTIPLIER = 2;

export interface CacheRule {
  /** How long an unread prefix lives, ms. */
  lifetimeMs: number;
  /** A written token costs this × input. */
  writeMultiplier: number;
  /** A read token costs this × input. */
  readMultiplier: number;
  /** A read refreshes the lifetime (both providers do). */
  refreshedByRead: boolean;
}

const MINUTE = 60_000;

export const CACHE_RULES = {
  anthropic5m: { lifetimeMs: 5 * MINUTE, writeMultiplier: 1.25, readMultiplier: 0.1, refreshedByRead: true },
  anthropic1h: { lifetimeMs: 60 * MINUTE, writeMultiplier: LONG_WRITE_MULTIPLIER, readMultiplier: 0.1, refreshedByRead: true },
  // In memory: the low end of "5–10 minutes idle", so no estimate counts on a cache that may be gone.
  openaiInMemory: { lifetimeMs: 5 * MINUTE, writeMultiplier: 1, readMultiplier: 0.1, refreshedByRead: true },
  openai24h: { lifetimeMs: 24 * 60 * MINUTE, writeMultiplier: 1, readMultiplier: 0.1, refreshedByRead: true },
} as const satisfies Record<string, CacheRule>;

export type CacheRuleId = keyof typeof CACHE_RULES;
