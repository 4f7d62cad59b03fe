/**
 * models.dev's data (the api.json shape: `{ "opencode": { models: {…} }, "opencode-go": { … } }`) → our model data.
 * The one conversion: the snapshot generator (tools/snapshotUpdate.ts) and the live fetch (liveModelData.ts) both
 * call it, so an offline user and an online one read the same facts the same way. Defensive: a malformed model is
 * left out with a reason, never guessed; a provider missing altogether makes the whole answer invalid.
 *
 * The route comes from the model's `provider.npm`, else its `provider.shape`, else the provider's npm (which route
 * each names: routes/select/routeRules.ts). Reasoning controls come from `reasoning_options`, mapped to the route's
 * control (routes/select/reasoningControl.ts, docs/effort.md).
 */
import { isRouteId, type RouteId, type EndpointCatalog } from '../routeId';
import { isNonNegative, recordField, isRecord } from '../util/jsonFields';
import { isFreeTierId } from './modelTable';
import { DEFAULT_ROUTE, routeOfNpm, routeOfShape } from '../routes/select/routeRules';
import { traitsOf } from '../routes/select/routeTraits';
import { clampedTokenLimit } from '../util/tokenLimit';
import type { ModelCard, ModelData, ModelStatus, PriceSet, Prices } from './modelData';
import { reasoningControlOf } from '../routes/select/reasoningControl';

export const PROVIDER_OF: Readonly<Record<EndpointCatalog, string>> = { zen: 'opencode', go: 'opencode-go' };
/** More models than any provider has listed by far: an answer beyond this is not the catalogue. */
export const MAX_MODELS_PER_PROVIDER = 2_000;
const MAX_PRICE = 100_000;
const ID = /^[a-z0-9][a-z0-9._-]{0,127}$/;
const RELEASE_DATE = /^\d{4}-\d{2}(?:-\d{2})?$/;

export interface Converted {
  data?: ModelData;
  /** One sentence per model left out, or why the whole answer was refused. */
  problems: string[];
}

export function fromModelsDev(raw: unknown, date: string, source: string): Converted {
  if (!isRecord(raw)) return { problems: ['the answer is not a JSON object'] };
  const problems: string[] = [];
  const out: Record<EndpointCatalog, Record<string, ModelCard>> = { zen: {}, go: {} };
  for (const catalog of ['zen', 'go'] as const) {
    const provider = raw[PROVIDER_OF[catalog]];
    if (!isRecord(provider) || !isRecord(provider.models)) return { problems: [`provider "${PROVIDER_OF[catalog]}" is missing or has no models`] };
    const entries = Object.entries(provider.models);
    if (entries.length > MAX_MODELS_PER_PROVIDER) return { problems: [`provider "${PROVIDER_OF[catalog]}" lists ${entries.length} models (more than ${MAX_MODELS_PER_PROVIDER})`] };
    const defaultRoute = routeOfNpm(provider.npm) ?? DEFAULT_ROUTE;
    for (const [id, model] of entries) {
      const card = ID.test(id) && isRecord(model) ? cardOf(id, model, defaultRoute) : undefined;
      if (card) out[catalog][id] = card;
      else problems.push(`${PROVIDER_OF[catalog]}/${id.slice(0, 80)}: not a usable model entry`);
    }
  }
  if (Object.keys(out.zen).length + Object.keys(out.go).length === 0) return { problems: [...problems, 'no usable model at all'] };
  return { data: { date, source, zen: out.zen, go: out.go }, problems };
}

function cardOf(id: string, model: Record<string, unknown>, defaultRoute: RouteId): ModelCard | undefined {
  const provider = recordField(model.provider);
  const route = routeOfNpm(provider.npm) ?? routeOfShape(provider.shape) ?? defaultRoute;
  if (!isRouteId(route)) return undefined;
  const limit = recordField(model.limit);
  const contextWindow = tokens(limit.context);
  let maxOutputTokens = tokens(limit.output);
  if (contextWindow !== undefined && maxOutputTokens !== undefined && maxOutputTokens > contextWindow) maxOutputTokens = undefined;
  // An input limit says something only below the window (gpt-5.4-mini: 272,000 of 400,000).
  const inputLimit = tokens(limit.input);
  const card: ModelCard = { route };
  if (typeof model.name === 'string' && model.name.length <= 200) card.name = model.name;
  if (contextWindow !== undefined) card.contextWindow = contextWindow;
  if (inputLimit !== undefined && (contextWindow === undefined || inputLimit < contextWindow)) card.inputLimit = inputLimit;
  if (maxOutputTokens !== undefined) card.maxOutputTokens = maxOutputTokens;
  const input = isRecord(model.modalities) && Array.isArray(model.modalities.input) ? model.modalities.input : undefined;
  if (input) card.imageInput = input.includes('image');
  const reasoningControl = model.reasoning === true ? reasoningControlOf(route, model.reasoning_options) : undefined;
  if (reasoningControl) card.reasoningControl = reasoningControl;
  if (traitsOf(route).echoesReasoningContent && (model.interleaved === true || (isRecord(model.interleaved) && model.interleaved.field === 'reasoning_content'))) card.echoReasoningContent = true;
  if (model.temperature === false) card.noTemperature = true;
  const prices = pricesOf(model.cost);
  if (prices) card.prices = prices;
  if (isFree(id, prices)) card.free = true;
  const status = statusOf(model.status);
  if (status) card.status = status;
  if (typeof model.release_date === 'string' && RELEASE_DATE.test(model.release_date)) card.released = model.release_date;
  return card;
}

function tokens(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? clampedTokenLimit(value) : undefined;
}

function price(value: unknown): number | undefined {
  return isNonNegative(value) && value <= MAX_PRICE ? value : undefined;
}

/** The base prices, and the first long-context tier (`tiers[0]`, above `tier.size` prompt tokens) when listed. */
function pricesOf(cost: unknown): Prices | undefined {
  const prices: Prices | undefined = priceSetOf(cost);
  if (!prices || !isRecord(cost) || !Array.isArray(cost.tiers)) return prices;
  const first: unknown = cost.tiers[0];
  const above = isRecord(first) && isRecord(first.tier) ? tokens(first.tier.size) : undefined;
  const tier = priceSetOf(first);
  if (above !== undefined && tier) {
    prices.above = above;
    prices.tier = tier;
  }
  return prices;
}

function priceSetOf(cost: unknown): PriceSet | undefined {
  if (!isRecord(cost)) return undefined;
  const input = price(cost.input);
  const output = price(cost.output);
  if (input === undefined || output === undefined) return undefined;
  const prices: PriceSet = { input, output };
  const cacheRead = price(cost.cache_read);
  const cacheWrite = price(cost.cache_write);
  if (cacheRead !== undefined) prices.cacheRead = cacheRead;
  if (cacheWrite !== undefined) prices.cacheWrite = cacheWrite;
  return prices;
}

/** OpenCode names its free-tier ids `…-free`; a model priced at zero everywhere is free too (Big Pickle). */
function isFree(id: string, prices: Prices | undefined): boolean {
  if (isFreeTierId(id)) return true;
  return !!prices && prices.input === 0 && prices.output === 0 && !prices.cacheRead && !prices.cacheWrite;
}

function statusOf(status: unknown): ModelStatus | undefined {
  if (status === 'deprecated') return 'deprecated';
  return status === 'alpha' || status === 'beta' ? 'preview' : undefined;
}
