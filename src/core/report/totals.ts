/** The session report's totals, straight from the recorded requests (what the `[usage]` lines said). */
import type { RequestRecord } from './requestLog';

export interface Totals {
  requests: number;
  promptTokens: number;
  /** Prompt tokens billed at the full (cold) price. */
  coldTokens: number;
  /** Prompt tokens served from the provider's cache. */
  cachedTokens: number;
  completionTokens: number;
  cutMoves: number;
  /** Mean of the per-request cache hit, 0…1 (0 with no requests). */
  meanHit: number;
  overCeiling: number;
}

/** What a request record and a simulated step share, for the cache sums both summaries report. */
export interface CacheStep {
  promptTokens: number;
  cachedTokens: number;
  cacheHit: number;
  cutMoved: boolean;
}

export interface CacheSums {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  coldTokens: number;
  cutMoves: number;
  /** Mean of the per-request cache hit, 0…1 (0 with no requests). */
  meanHit: number;
}

export function cacheSums(steps: readonly CacheStep[]): CacheSums {
  let promptTokens = 0;
  let cachedTokens = 0;
  let hits = 0;
  for (const s of steps) {
    promptTokens += s.promptTokens;
    cachedTokens += s.cachedTokens;
    hits += s.cacheHit;
  }
  const requests = steps.length;
  const cutMoves = steps.filter((s) => s.cutMoved).length;
  return { requests, promptTokens, cachedTokens, coldTokens: promptTokens - cachedTokens, cutMoves, meanHit: requests > 0 ? hits / requests : 0 };
}

export function totals(records: readonly RequestRecord[]): Totals {
  const sums = cacheSums(records);
  let completionTokens = 0;
  for (const r of records) completionTokens += r.completionTokens;
  return {
    requests: sums.requests,
    promptTokens: sums.promptTokens,
    coldTokens: sums.coldTokens,
    cachedTokens: sums.cachedTokens,
    completionTokens,
    cutMoves: sums.cutMoves,
    meanHit: sums.meanHit,
    overCeiling: records.filter((r) => r.overCeiling).length,
  };
}

/**
 * Cost of the prompt side in cold-token equivalents: cold tokens at full price plus cached tokens at
 * `cachedPrice` of it (providers bill cache reads at about a tenth; the ratio is a parameter, not a claim).
 */
export function inputCost(cold: number, cached: number, cachedPrice: number): number {
  return cold + cached * cachedPrice;
}

export const DEFAULT_CACHED_PRICE = 0.1;
