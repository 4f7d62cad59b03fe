/**
 * What a model's tokens cost: one price table per model, looked up through `pricesFor` alone, so the source of the
 * prices (today the bundled catalogue's price rows, catalogPrices.ts) can change in one place.
 */
import { CATALOG_PRICES, type PriceRow, type PriceTuple } from '../models/catalog/catalogPrices';
import { catalogOf, type Catalog } from '../routes/select/routeTable';

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

function modelPrices(row: PriceRow): ModelPrices {
  const prices: ModelPrices = { base: priceTable(row.base) };
  if (row.above !== undefined && row.tier) {
    prices.above = row.above;
    prices.tier = priceTable(row.tier);
  }
  return prices;
}

/**
 * The model's list prices: the endpoint's catalogue first (Go and Zen price some models differently), else Zen's,
 * else Go's (a custom endpoint serving a model under OpenCode's id gets OpenCode's price, marked computed).
 * Undefined when no catalogue prices the model.
 */
export function pricesFor(modelId: string, baseUrl?: string): ModelPrices | undefined {
  const id = modelId.toLowerCase().replace(/^.*\//, '');
  const first = baseUrl === undefined ? undefined : catalogOf(baseUrl);
  const order: Catalog[] = first === 'go' ? ['go', 'zen'] : ['zen', 'go'];
  for (const catalog of order) {
    const row = Object.prototype.hasOwnProperty.call(CATALOG_PRICES[catalog], id) ? CATALOG_PRICES[catalog][id] : undefined;
    if (row) return modelPrices(row);
  }
  return undefined;
}

/** The table that applies to a request with this many prompt tokens. */
export function pricesAt(prices: ModelPrices, promptTokens: number): PriceTable {
  return prices.tier && prices.above !== undefined && promptTokens > prices.above ? prices.tier : prices.base;
}
