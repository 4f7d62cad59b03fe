/**
 * The dollars of one request, pure: OpenCode's own figure when its cost frame came (core/answer/answerReader.ts
 * reads it), else computed from the model's prices and the usage record, cache reads and writes included; none
 * when neither is known. And the one way a dollar amount is written (the `[usage]` line, the status bar, the report).
 *
 * What a model's tokens cost: one price table per model, looked up through `pricesFor` alone, so the source of the
 * prices (the one model table: live models.dev data, else the bundled snapshot) is named in one place.
 */
import type { NormalizedUsage } from '../types';
import { MODEL_TABLE } from '../models/modelTable';
import { LONG_WRITE_MULTIPLIER } from './cacheRules';
import { isNonNegative } from '../util/jsonFields';
import { type EndpointCatalog } from '../routeId';

/** input, output, cache read, cache write: USD per million tokens (a cache price may be unlisted). */
export type PriceTuple = [number, number, number?, number?];

/** USD per million tokens. A cache write is a prompt token written to the cache (Anthropic's 5-minute rate). */
export interface PriceTable {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A model's prices: `base`, and from `above` prompt tokens on, `tier` for the whole request. */
export interface ModelPrices {
  base: PriceTable;
  above?: number;
  tier?: PriceTable;
}

/** A cache price the source does not list is no separate price: those tokens cost the input price. */
export function priceTable([input, output, cacheRead, cacheWrite]: PriceTuple): PriceTable {
  return { input, output, cacheRead: cacheRead ?? input, cacheWrite: cacheWrite ?? input };
}

/**
 * The model's list prices from the one model table (core/models/modelTable.ts): the endpoint's catalogue first (Go
 * and Zen price some models differently), else Zen's, else Go's (a custom endpoint serving a model under OpenCode's
 * id gets OpenCode's price, marked computed). Undefined when no data prices the model.
 */
export function pricesFor(modelId: string, catalog?: EndpointCatalog): ModelPrices | undefined {
  const id = modelId.toLowerCase().replace(/^.*\//, '');
  const order: EndpointCatalog[] = catalog === 'go' ? ['go', 'zen'] : ['zen', 'go'];
  for (const from of order) {
    const prices = MODEL_TABLE.pricesFor(id, from);
    if (!prices) continue;
    const found: ModelPrices = { base: priceTable([prices.input, prices.output, prices.cacheRead, prices.cacheWrite]) };
    if (prices.above !== undefined && prices.tier) {
      found.above = prices.above;
      found.tier = priceTable([prices.tier.input, prices.tier.output, prices.tier.cacheRead, prices.tier.cacheWrite]);
    }
    return found;
  }
  return undefined;
}

/** The table that applies to a request with this many prompt tokens. */
export function pricesAt(prices: ModelPrices, promptTokens: number): PriceTable {
  return prices.tier && prices.above !== undefined && promptTokens > prices.above ? prices.tier : prices.base;
}


export type CostSource = 'reported' | 'computed';

export interface RequestCost {
  usd: number;
  source: CostSource;
}

export interface CostInput {
  usage: NormalizedUsage;
  /** OpenCode's cost frame, USD. */
  reportedUsd?: number;
  prices?: ModelPrices;
  /** The request asked Anthropic for the 1-hour cache lifetime: its writes cost LONG_WRITE_MULTIPLIER × input. */
  longCacheWrites?: boolean;
}

/** The prompt split the way prices apply: tokens read from the cache, written to it, and the rest. */
export function promptParts(usage: NormalizedUsage): { uncached: number; read: number; written: number } {
  const read = Math.max(0, usage.cachedTokens);
  const written = Math.max(0, usage.cacheWriteTokens);
  return { uncached: Math.max(0, usage.contextTokens - read - written), read, written };
}

/** USD of a usage record at a price table (prices per million tokens). */
export function computedUsd(usage: NormalizedUsage, prices: PriceTable, longCacheWrites = false): number {
  const { uncached, read, written } = promptParts(usage);
  const writePrice = longCacheWrites ? prices.input * LONG_WRITE_MULTIPLIER : prices.cacheWrite;
  const micro = uncached * prices.input + read * prices.cacheRead + written * writePrice + Math.max(0, usage.completionTokens) * prices.output;
  return micro / 1_000_000;
}

/** Reported wins (it is what the account was charged); computed when the model has prices; else undefined. */
export function requestCost(input: CostInput): RequestCost | undefined {
  if (isNonNegative(input.reportedUsd)) return { usd: input.reportedUsd, source: 'reported' };
  if (!input.prices) return undefined;
  return { usd: computedUsd(input.usage, pricesAt(input.prices, input.usage.contextTokens), input.longCacheWrites), source: 'computed' };
}

/** Sums of bounded costs stay far below this; toFixed writes plain digits up to 1e21. */
const MAX_PRINTED_USD = 1e15;

/** `$0.0123`: plain dollars, six decimals, trailing zeros trimmed down to four (a cheap request still shows its digits). */
export function formatUsd(usd: number): string {
  const bounded = Number.isNaN(usd) ? 0 : Math.min(MAX_PRINTED_USD, Math.max(0, usd));
  const fixed = bounded.toFixed(6);
  return `$${fixed.replace(/0{1,2}$/, '')}`;
}

/** The `[usage]` line's field: `cost=$0.0123` when OpenCode reported it, `cost≈$0.0123` when computed from prices. */
export function costField(cost: RequestCost): string {
  return `cost${cost.source === 'reported' ? '=' : '≈'}${formatUsd(cost.usd)}`;
}
