/**
 * What a model's tokens cost: one price table per model, looked up through `pricesFor` alone, so the source of the
 * prices (the one model table: live models.dev data, else the bundled snapshot) is named in one place.
 */
import { MODEL_TABLE } from '../models/modelTable';
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
