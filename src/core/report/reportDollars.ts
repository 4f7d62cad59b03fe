/**
 * The report's dollars, pure: what the conversation's requests cost (their own per-request costs summed), what
 * the cache saved them, what warming cost apart, and a replay's prompt side at the model's list prices. A figure
 * that needs prices is undefined when the model has none: the page says "no price", never a made-up number.
 */
import type { ConversationLog, RequestRecord, WarmingTally } from './requestLog';
import { pricesAt, type ModelPrices } from '../cost/requestCost';

/** What a record and a replayed step share for pricing the prompt side. */
interface PromptStep {
  promptTokens: number;
  cachedTokens: number;
}

export interface ReportDollars {
  /** Sum of the requests' own costs; `computed` when any came from prices rather than OpenCode's cost frame. */
  spent?: { usd: number; computed: boolean };
  /** Requests of `records` without a known cost (not in `spent`). */
  unpriced: number;
  /** The records' cached tokens at the input price minus the same tokens at the cache-read price. */
  cacheSaved?: number;
  warming?: WarmingTally;
  /** Image descriptions for a text-only model (request/describeImages.ts), counted apart like warming. */
  describing?: WarmingTally;
}

/** The conversation's running sum when it has one (it also holds requests the log has dropped), else the records'. */
export function spentOf(log: ConversationLog): ReportDollars['spent'] {
  if (log.spent) return log.spent;
  const priced = log.records.filter((r) => r.costUsd !== undefined);
  if (priced.length === 0) return undefined;
  return { usd: priced.reduce((sum, r) => sum + (r.costUsd ?? 0), 0), computed: priced.some((r) => r.costSource === 'computed') };
}

/** Each request's cached tokens × (input − cache read), at the price tier that request's prompt size is in. */
export function cacheSavedUsd(records: readonly RequestRecord[], prices: ModelPrices | undefined): number | undefined {
  if (!prices) return undefined;
  let micro = 0;
  for (const r of records) {
    const table = pricesAt(prices, r.promptTokens);
    micro += r.cachedTokens * (table.input - table.cacheRead);
  }
  return micro / 1_000_000;
}

/**
 * A replay's prompt dollars: cold tokens at the input price, cached at the cache-read price, per step at its
 * tier. Output tokens are left out: every policy answers the same requests, so they cost the same under each.
 */
export function promptUsd(steps: readonly PromptStep[], prices: ModelPrices | undefined): number | undefined {
  if (!prices) return undefined;
  let micro = 0;
  for (const s of steps) {
    const table = pricesAt(prices, s.promptTokens);
    micro += (s.promptTokens - s.cachedTokens) * table.input + s.cachedTokens * table.cacheRead;
  }
  return micro / 1_000_000;
}

export function reportDollars(log: ConversationLog, prices: ModelPrices | undefined): ReportDollars {
  const spent = spentOf(log);
  const cacheSaved = cacheSavedUsd(log.records, prices);
  return {
    ...(spent ? { spent } : {}),
    unpriced: log.records.filter((r) => r.costUsd === undefined).length,
    ...(cacheSaved !== undefined ? { cacheSaved } : {}),
    ...(log.warming ? { warming: log.warming } : {}),
    ...(log.describing ? { describing: log.describing } : {}),
  };
}
