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

export function totals(records: readonly RequestRecord[]): Totals {
  let promptTokens = 0;
  let cachedTokens = 0;
  let completionTokens = 0;
  let hits = 0;
  for (const r of records) {
    promptTokens += r.promptTokens;
    cachedTokens += r.cachedTokens;
    completionTokens += r.completionTokens;
    hits += r.cacheHit;
  }
  return {
    requests: records.length,
    promptTokens,
    coldTokens: promptTokens - cachedTokens,
    cachedTokens,
    completionTokens,
    cutMoves: records.filter((r) => r.cutMoved).length,
    meanHit: records.length > 0 ? hits / records.length : 0,
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
