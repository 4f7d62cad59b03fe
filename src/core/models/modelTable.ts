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
 * ceiling learned from refusals while the data does not explain them (learnedLimits.ts). One matching rule
 * (familyRule.bareId). Pure apart from the live data it holds.
 */
import type { ModelOverride } from './modelOverrides';
import type { EffortSubject } from './reasoningControl';
import type { RouteId } from '../routeId';
import { SNAPSHOT } from './data/snapshot';
import { estimateFor, type Estimate } from './estimate';
import { bareId, familyOf, isFreeTierId } from './familyRule';
import { learnedInputLimit, type LearnedLimit } from './learnedLimits';
import type { EndpointCatalog, ModelCard, ModelData, ModelStatus, Prices } from './modelData';
import type { ReasoningControl } from './reasoningControl';

export type FactSource = 'setting' | 'learned' | 'live' | 'snapshot' | 'family' | 'endpoint' | 'estimate' | 'fallback' | 'default' | 'unknown';

/** What the endpoint's own `/models` entry said (parseModelList.ts). */
export interface ListedFields {
  name?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  imageInput?: boolean;
  toolCalling?: boolean;
  /** The route the endpoint states for the model. */
  api?: RouteId;
}

export interface ModelQuery {
  modelId: string;
  /** The endpoint's OpenCode catalogue; undefined for a custom endpoint. */
  catalog?: EndpointCatalog;
  override?: ModelOverride;
  learnedRoute?: RouteId;
  /** What the endpoint's refusals taught (learnedLimits.ts): a window it named (learnedWins), an input ceiling. */
  learned?: LearnedLimit;
  listed?: ListedFields;
  /** `opencode.contextLimitFallback` (0: none). */
  fallbackWindow?: number;
}

export interface ModelFacts {
  id: string;
  name: string;
  route: RouteId;
  routeSource: FactSource;
  contextWindow?: number;
  windowSource: FactSource;
  /** The most prompt tokens it takes, when below the window: the data's (models.dev `limit.input`) or a learned ceiling. */
  inputLimit?: number;
  inputSource?: FactSource;
  maxOutputTokens?: number;
  imageInput: boolean;
  toolCalling: boolean;
  /** The card's reasoning control, when its route is the route taken (a control exists on its own route only). */
  reasoningControl?: ReasoningControl;
  /**
   * The levels the picker offers: the card on the route taken, else the model's card on its own route (on a custom
   * endpoint the first refusal moves the request there; sendBody applies a level only on the card's route).
   */
  offeredControl?: ReasoningControl;
  /** The model reasons on `route`: Responses asks for encrypted reasoning, Gemini for thoughts. */
  reasons: boolean;
  /** The same rule for another route (a switch rebuilds the body for it). */
  reasonsOn: (route: RouteId) => boolean;
  echoReasoningContent: boolean;
  noTemperature: boolean;
  prices?: Prices;
  free: boolean;
  status?: ModelStatus;
  /** Where the card came from, if any ("live", "snapshot"). */
  cardSource?: 'live' | 'snapshot';
  /** The date of the data the card came from. */
  dataDate?: string;
  /** No data lists the id: these facts stand in from the newest model of its family on the endpoint (estimate.ts). */
  estimatedFrom?: string;
}

/** What shapes a request body on one route (effort fields, per-family quirks: core/request/sendBody.ts). */
export interface RouteCard extends EffortSubject {
  echoReasoningContent: boolean;
  noTemperature: boolean;
}

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
      return on === 'gemini' ? reasons !== false : reasons === true;
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
  if (!query.catalog) return query.listed?.api ? [query.listed.api, 'endpoint'] : ['chat', 'default'];
  if (found) return [found.card.route, found.source];
  if (query.listed?.api) return [query.listed.api, 'endpoint'];
  if (familyRoute) return [familyRoute, 'family'];
  if (estimatedRoute) return [estimatedRoute, 'estimate'];
  return ['chat', 'default'];
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
