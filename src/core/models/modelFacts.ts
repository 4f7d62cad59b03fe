/**
 * The model table's vocabulary (types only, nothing runs): what a lookup is asked (the endpoint's catalogue, the
 * user's override, what was learned, what the endpoint's own `/models` listed) and what it answers — a model's facts
 * on an endpoint, its card on one route, its route choice — plus the settings the facts read. The table itself:
 * modelTable.ts.
 */
import type { ModelOverride } from './modelOverrides';
import type { EffortSubject, ReasoningControl } from '../routes/select/reasoningControl';
import type { EndpointCatalog, RouteId } from '../routeId';
import type { LearnedLimit } from './learnedLimits';
import type { ModelStatus, Prices } from './modelData';

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

/** The settings the model facts read (structurally a part of config's Settings; models never imports config). */
export interface ModelSettings {
  catalog?: EndpointCatalog;
  models?: Readonly<Record<string, ModelOverride>>;
  showFreeModels?: boolean;
}

export interface DescribingCandidate {
  id: string;
  /** The model table's image flag for it (ModelFacts.imageInput). */
  imageInput: boolean;
  /** Dollars per million input tokens, when the data prices it. */
  inputPrice?: number;
}

export type RouteSource = FactSource;

export interface RouteChoice {
  route: RouteId;
  source: RouteSource;
  /** The model reasons (data / family rule); on Gemini assumed unless the data says it does not. */
  reasons: boolean;
  /** The same rule on another route (a switch after "not supported for format" rebuilds the body for it). */
  reasonsOn: (route: RouteId) => boolean;
}

export type RouteQuery = Pick<ModelQuery, 'modelId' | 'override' | 'catalog' | 'listed'> & { learned?: RouteId };
