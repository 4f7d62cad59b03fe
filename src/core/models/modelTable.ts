/**
 * The one model table: "what do we know about model M on endpoint E". Every reader of model facts (route choice,
 * trim budget, effort picker, image handling, prices, the picker, the report) asks `lookup`. Precedence, highest
 * first, field by field:
 *
 *   `opencode.models` override → learned (route, window, input ceiling) → live model data → bundled snapshot →
 *   family rule → the endpoint's own `/models` fields → an estimate from the family's newest model (estimate.ts) →
 *   `opencode.contextLimitFallback`.
 *
 * Live data and the snapshot describe OpenCode's endpoints: for a custom endpoint they are asked after its own
 * `/models` fields (a proxy in front of Zen still finds Zen's windows), and never for the first route (an Ollama
 * `qwen3` is chat, not Zen's Messages); there the family rule picks the route only after a wrong-format refusal,
 * and no estimate is made (a local `qwen3` is not Zen's). The input limit is the data's (or the estimate's), below a
 * ceiling learned from refusals while the data does not explain them (learnedLimits.ts). One matching rule (bareId);
 * the family rule's table and each route's traits are route selection's (routes/select). Also the table's answers
 * as the picker's and the engine's entries, and the route choice. Pure apart from the live data it holds; its
 * types are modelFacts.ts.
 */
import type { RouteId, EndpointCatalog } from '../routeId';
import { ROUTE_IDS } from '../routeId';
import { SNAPSHOT } from './data/snapshot';
import { estimateFor, type Estimate } from './estimate';
import { learnedInputLimit, type LearnedLimit } from './learnedLimits';
import type { ModelCard, ModelData, Prices } from './modelData';
import type { DescribingCandidate, FactSource, ListedFields, ModelFacts, ModelQuery, ModelSettings, RouteCard, RouteChoice, RouteQuery } from './modelFacts';
import type { ModelEntry, ModelLimits } from '../types';
import { DEFAULT_ROUTE, FAMILIES, type Family } from '../routes/select/routeRules';
import { traitsOf } from '../routes/select/routeTraits';

interface FoundCard {
  card: ModelCard;
  source: 'live' | 'snapshot';
  date: string;
}

export class ModelTable {
  private live: ModelData | undefined;

  constructor(private readonly snapshot: ModelData = SNAPSHOT) {}

  /** Live data (liveModelData.ts) replaces the snapshot for every model it lists; undefined goes back to it. */
  setLive(data: ModelData | undefined): void {
    this.live = data;
  }

  /** The live data in use, if any. */
  get liveData(): ModelData | undefined {
    return this.live;
  }

  get liveDate(): string | undefined {
    return this.live?.date;
  }

  get snapshotDate(): string {
    return this.snapshot.date;
  }

  /** Every id the data lists for an endpoint (live over snapshot), sorted: the picker's list before /models answers. */
  ids(catalog: EndpointCatalog): string[] {
    return [...new Set([...Object.keys(this.live?.[catalog] ?? {}), ...Object.keys(this.snapshot[catalog])])].sort();
  }

  /**
   * The card for a model: live before snapshot; on a custom endpoint Zen's then Go's. With `route`, a card on that
   * route is preferred (MiniMax M3 is chat on Zen, Messages on Go).
   */
  card(modelId: string, catalog: EndpointCatalog | undefined, route?: RouteId): FoundCard | undefined {
    const id = bareId(modelId);
    const found: FoundCard[] = [];
    for (const cat of catalog ? [catalog] : (['zen', 'go'] as const)) {
      for (const [data, source] of [[this.live, 'live'], [this.snapshot, 'snapshot']] as const) {
        const card = data?.[cat][id];
        if (card && Object.prototype.hasOwnProperty.call(data[cat], id)) found.push({ card, source, date: data.date });
      }
    }
    return (route && found.find((f) => f.card.route === route)) || found[0];
  }

  /** The card's request-shaping facts for a model on one route (an estimate's for an id no data lists), or undefined when none is on that route. */
  cardOn(modelId: string, catalog: EndpointCatalog | undefined, route: RouteId): RouteCard | undefined {
    const card = (this.card(modelId, catalog, route) ?? this.estimate(modelId, catalog))?.card;
    if (card?.route !== route) return undefined;
    const { reasoningControl, maxOutputTokens } = card;
    return { id: modelId, route, reasoningControl, maxOutputTokens, echoReasoningContent: card.echoReasoningContent === true, noTemperature: card.noTemperature === true };
  }

  /** For an id no data lists on an OpenCode endpoint: the newest model of its family there (estimate.ts). */
  estimate(modelId: string, catalog: EndpointCatalog | undefined): Estimate | undefined {
    if (!catalog) return undefined;
    return estimateFor(modelId, catalog, [{ data: this.live, source: 'live' }, { data: this.snapshot, source: 'snapshot' }]);
  }

  lookup(query: ModelQuery): ModelFacts {
    const { modelId, catalog, override, listed = {} } = query;
    const found = this.card(modelId, catalog);
    const estimated = found ? undefined : this.estimate(modelId, catalog);
    const known = found ?? estimated;
    const family = familyOf(modelId, catalog);
    const [route, routeSource] = routeOf(query, found, family?.route, estimated?.card.route);
    // A card on the route taken (the same model may sit on two routes, one per endpoint).
    const onRoute = found ? this.card(modelId, catalog, route) : estimated;
    const card = onRoute?.card.route === route ? onRoute : undefined;
    const [contextWindow, windowSource] = windowOf(query, found, estimated);
    const [inputLimit, inputSource] = found ? inputOf(query, contextWindow, found.card.inputLimit, found.source) : inputOf(query, contextWindow, windowSource === 'estimate' ? estimated?.card.inputLimit : undefined, 'estimate');
    const dataFirst = catalog !== undefined;
    const fromData = found?.card;
    const maxOutputTokens = override?.maxOutputTokens ?? (dataFirst ? fromData?.maxOutputTokens ?? listed.maxOutputTokens ?? estimated?.card.maxOutputTokens : listed.maxOutputTokens ?? fromData?.maxOutputTokens);
    const cardReasons = known ? known.card.reasoningControl !== undefined : undefined;
    const familyReasons = family?.reasons;
    const reasonsOn = (on: RouteId): boolean => {
      const reasons = cardReasons ?? familyReasons;
      // Every Gemini model served reasons; elsewhere only a model known to reason asks for its reasoning.
      return traitsOf(on).reasonsUnlessTold ? reasons !== false : reasons === true;
    };
    return {
      id: modelId,
      name: listed.name && listed.name !== modelId ? listed.name : fromData?.name ?? modelId,
      route,
      routeSource,
      contextWindow,
      windowSource,
      inputLimit,
      inputSource,
      maxOutputTokens: maxOutputTokens !== undefined && contextWindow !== undefined ? Math.min(maxOutputTokens, contextWindow) : maxOutputTokens,
      imageInput: override?.imageInput ?? (dataFirst ? fromData?.imageInput ?? listed.imageInput : listed.imageInput ?? fromData?.imageInput) ?? false,
      toolCalling: listed.toolCalling ?? true,
      reasoningControl: card?.card.reasoningControl,
      offeredControl: card ? card.card.reasoningControl : known?.card.reasoningControl,
      reasons: reasonsOn(route),
      reasonsOn,
      echoReasoningContent: card?.card.echoReasoningContent === true,
      noTemperature: card?.card.noTemperature === true,
      prices: fromData?.prices,
      free: fromData?.free ?? isFreeTierId(modelId),
      status: fromData?.status,
      cardSource: known?.source,
      dataDate: known?.date,
      ...(estimated ? { estimatedFrom: estimated.from } : {}),
    };
  }

  /** USD per 1M tokens for a model on an endpoint, or undefined when no data has its prices. */
  pricesFor(modelId: string, catalog: EndpointCatalog | undefined): Prices | undefined {
    const prices = this.card(modelId, catalog)?.card.prices;
    return prices ? { ...prices } : undefined;
  }
}

function routeOf(query: ModelQuery, found: FoundCard | undefined, familyRoute: RouteId | undefined, estimatedRoute: RouteId | undefined): [RouteId, FactSource] {
  if (query.override?.api) return [query.override.api, 'setting'];
  if (query.learnedRoute) return [query.learnedRoute, 'learned'];
  // A custom endpoint: the route its /models states, else chat first; a wrong-format refusal then lets the family
  // rule choose (nextRoute). On Go or Zen the model data knows better than a gateway's list.
  if (!query.catalog) return query.listed?.api ? [query.listed.api, 'endpoint'] : [DEFAULT_ROUTE, 'default'];
  if (found) return [found.card.route, found.source];
  if (query.listed?.api) return [query.listed.api, 'endpoint'];
  if (familyRoute) return [familyRoute, 'family'];
  if (estimatedRoute) return [estimatedRoute, 'estimate'];
  return [DEFAULT_ROUTE, 'default'];
}

function windowOf(query: ModelQuery, found: FoundCard | undefined, estimated: Estimate | undefined): [number | undefined, FactSource] {
  if (query.override?.contextWindow) return [query.override.contextWindow, 'setting'];
  const listed = query.listed?.contextWindow;
  const data = found?.card.contextWindow;
  const candidates: [number | undefined, FactSource][] = query.catalog
    ? [[data, found?.source ?? 'unknown'], [listed, 'endpoint'], [estimated?.card.contextWindow, 'estimate']]
    : [[listed, 'endpoint'], [data, found?.source ?? 'unknown']];
  const [known, source] = candidates.find(([value]) => value !== undefined) ?? [undefined, 'unknown' as FactSource];
  if (learnedWins(known, query.learned?.window)) return [query.learned.window, 'learned'];
  if (known !== undefined) return [known, source];
  return query.fallbackWindow ? [query.fallbackWindow, 'fallback'] : [undefined, 'unknown'];
}

/**
 * The input limit: the card's (the estimate's when the window is estimated too), under the ceiling the endpoint's
 * refusals taught while the card does not explain them; one at or above the window says nothing.
 */
function inputOf(query: ModelQuery, contextWindow: number | undefined, published: number | undefined, source: FactSource): [number | undefined, FactSource | undefined] {
  const { inputLimit, learned } = learnedInputLimit(published, contextWindow, query.learned);
  if (inputLimit === undefined || (contextWindow !== undefined && inputLimit >= contextWindow)) return [undefined, undefined];
  return [inputLimit, learned ? 'learned' : source];
}

/**
 * The endpoint named a window in its own context-length error: it wins over every published figure below the
 * setting, when smaller (a larger one would be a misread error or a stale record; the published window stands).
 */
export function learnedWins(known: number | undefined, learned: number | undefined): learned is number {
  return !!learned && (known === undefined || learned < known);
}

/** The table the extension uses; the live fetch sets its data (liveModelData.ts), tests may build their own. */
export const MODEL_TABLE = new ModelTable();

/** The price lookup for the cost feature: USD per 1M tokens, or undefined. */
export function pricesFor(modelId: string, catalog: EndpointCatalog | undefined): Prices | undefined {
  return MODEL_TABLE.pricesFor(modelId, catalog);
}

/** The family an id belongs to (routeRules.ts). `catalog` undefined (a custom endpoint): the first row whatever its endpoints. */
export function familyOf(modelId: string, catalog: EndpointCatalog | undefined): Family | undefined {
  const id = bareId(modelId);
  return FAMILIES.find((family) => id.startsWith(family.prefix) && (!catalog || family.catalogs.includes(catalog)));
}

/** OpenCode's free-tier ids end in `-free`. */
export function isFreeTierId(modelId: string): boolean {
  return bareId(modelId).endsWith('-free');
}

/** The one id-matching rule: lowercase, without a `provider/` prefix (`opencode/claude-opus-4-7`). */
export function bareId(modelId: string): string {
  return modelId.toLowerCase().replace(/^.*\//, '');
}

/** A model's route (the table's lookup: setting, learned, model data, family rule, else DEFAULT_ROUTE). */
export function selectRoute(query: RouteQuery, table: ModelTable = MODEL_TABLE): RouteChoice {
  const facts = table.lookup({ modelId: query.modelId, catalog: query.catalog, override: query.override, learnedRoute: query.learned, listed: query.listed });
  return { route: facts.route, source: facts.routeSource, reasons: facts.reasons, reasonsOn: facts.reasonsOn };
}

/**
 * After "not supported for format F" on `failed`: the route to try next, never one already tried — the model data's
 * route (on a custom endpoint Zen's, then Go's), the family rule (this endpoint's, then any), then the rest in a
 * fixed order. On a custom endpoint the first refusal so reaches the family's route (Gemini after one, not three).
 */
export function nextRoute(modelId: string, failed: RouteId, tried: readonly RouteId[], catalog?: EndpointCatalog, table: ModelTable = MODEL_TABLE): RouteId | undefined {
  const excluded = new Set<RouteId>([failed, ...tried]);
  const candidates = [table.card(modelId, catalog)?.card.route, table.card(modelId, undefined)?.card.route, familyOf(modelId, catalog)?.route, familyOf(modelId, undefined)?.route, ...ROUTE_IDS];
  return candidates.find((route): route is RouteId => route !== undefined && !excluded.has(route));
}

const LIMIT_SOURCES: Partial<Record<FactSource, ModelEntry['limitSource']>> = { setting: 'setting', learned: 'learned', live: 'bundled', snapshot: 'bundled', endpoint: 'endpoint', estimate: 'estimated', fallback: 'fallback' };

/** Before the endpoint has listed anything (no key yet): the ids the data lists for its catalogue. */
export function dataEntries(catalog: EndpointCatalog | undefined, table: ModelTable = MODEL_TABLE): ModelEntry[] {
  if (!catalog) return [];
  return table.ids(catalog).map((id) => ({ id, name: id, toolCalling: true, imageInput: false, limitSource: 'unknown' }));
}

/** What the endpoint's own `/models` entry said, as the table's listed fields (an image flag it did not set is unknown). */
export function listedFields(listed: Partial<ModelEntry> | ListedFields): ListedFields {
  return { name: listed.name, contextWindow: listed.contextWindow, maxOutputTokens: listed.maxOutputTokens, toolCalling: listed.toolCalling, imageInput: listed.imageInput || undefined, ...(listed.api ? { api: listed.api } : {}) };
}

/** The facts of one model on an endpoint: the table's lookup with the endpoint's settings and what its engine learned. */
export function modelFacts(modelId: string, listed: ListedFields, settings: Pick<ModelSettings, 'catalog' | 'models'>, learned?: LearnedLimit, table: ModelTable = MODEL_TABLE): ModelFacts {
  return table.lookup({ modelId, catalog: settings.catalog, override: settings.models?.[modelId], listed: listedFields(listed), learned });
}

/** The limits a request is trimmed to, from the facts. */
export function limitsOf(facts: ModelFacts): ModelLimits {
  const limits: ModelLimits = { contextWindow: facts.contextWindow, maxOutputTokens: facts.maxOutputTokens };
  if (facts.inputLimit !== undefined) limits.inputLimit = facts.inputLimit;
  if (facts.windowSource === 'estimate' && facts.estimatedFrom) limits.estimatedFrom = facts.estimatedFrom;
  return limits;
}

/** A listed model with what the table knows: the entry the engine trims for and the picker describes. */
export function resolveEntry(listed: ModelEntry, settings: Pick<ModelSettings, 'catalog' | 'models'>, table: ModelTable = MODEL_TABLE, learned?: LearnedLimit): { entry: ModelEntry; facts: ModelFacts } {
  const facts = modelFacts(listed.id, listed, settings, learned, table);
  const entry: ModelEntry = { id: listed.id, name: facts.name, ...limitsOf(facts), toolCalling: facts.toolCalling, imageInput: facts.imageInput, limitSource: LIMIT_SOURCES[facts.windowSource] ?? 'unknown' };
  return { entry, facts };
}

/** The picker hides free-tier models unless opencode.showFreeModels is on (OpenCode refuses them to other clients). */
export function offered(facts: ModelFacts, settings: Pick<ModelSettings, 'showFreeModels'>): boolean {
  return !facts.free || settings.showFreeModels === true;
}

/**
 * Which model describes images for a model without image input (docs/editor.md "Images for text-only models"):
 * `opencode.imageDescription.model` when set (`none`: no model, the note stays); else a vision model of the same
 * endpoint, from the model table's facts of what it lists: the cheapest by input price (unpriced ones after the
 * priced), then by id, so the choice is the same on every request while the list is.
 */
export const NO_DESCRIBING_MODEL = 'none';

export function describingModel(setting: string | undefined, candidates: readonly DescribingCandidate[]): string | undefined {
  const chosen = setting?.trim() ?? '';
  if (chosen.toLowerCase() === NO_DESCRIBING_MODEL) return undefined;
  if (chosen) return chosen;
  const vision = candidates.filter((c) => c.imageInput);
  vision.sort((a, b) => (a.inputPrice ?? Infinity) - (b.inputPrice ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return vision[0]?.id;
}
