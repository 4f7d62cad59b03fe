/**
 * Each attempt on the wire, as decided per model: which route it takes (models/modelTable.ts through selectRoute,
 * a route learned, a pinned route the gateway refused), the next route after a gateway's "not supported for format
 * F" (the same prepared request, trim unchanged, only the body rebuilt, each route tried once: docs/routes.md), the
 * body as it goes out (effort, the catalogue's quirks, the parameters the model refused) and what a refusal
 * teaches. Pure apart from the tables it is handed.
 *
 * The body as it goes on the wire, from the prepared one: the thinking effort folded in (the picker's value, else
 * `opencode.models["<id>"].reasoningEffort`; "default" sends nothing), then the catalogue's per-family quirks
 * (no `temperature` for noTemperature models, and what the route's format cannot carry beside the effort fields:
 * core/routes/route.ts AttemptRules.quirks), then the parameters the model refused. Applied per attempt, after the
 * trim: the same model and choice give the same bytes every turn.
 *
 * Some models answer 400 to a parameter they do not support (a reasoning model and `temperature`, a gateway and
 * `stream_options`, a strict endpoint and `reasoning_content` on a message). Such a **refused parameter** is left out
 * for that model from then on and the request is sent again: the user never sees the 400. Only parameters we add
 * ourselves can be dropped, and only when the error names one.
 *
 * A route pinned in `opencode.models["<id>"].api` that the gateway refuses: the route that answered is used instead
 * for the rest of the activation (until the window reloads; not persisted: the user may fix the setting), and the
 * user is told once that the setting is wrong — instead of a refusal and a second request on every request.
 */
import type { Settings } from '../config/settings';
import { MODEL_TABLE, nextRoute, selectRoute } from '../models/modelTable';
import { effortFields, mergeEffort, type EffortChoice } from '../routes/effort';
import { type RouteId, type EndpointCatalog } from '../routeId';
import { routeById } from '../routes/registry/registry';
import type { PreparedRequest } from './prepareRequest';
import { type RouteCard, type RouteChoice } from '../models/modelFacts';
import { EFFORT_LEVELS } from '../routes/select/reasoningControl';
import { bodyFor } from './prepareRequest';
import { APIError } from 'openai';
import { DROPPABLE_PARAMS, type DroppableParam } from '../routes/droppableParams';
import type { Logger } from '../log';
import { MAX_REFUSED_PARAMS } from './savedRecords';
import { outsideText } from '../util/excerpt';
import type { LearnedRoutes } from '../routes/select/learnedRoutes';
import { routeSwitchLine } from '../routes/select/routeLog';
import { openCodeErrorOf } from './openCodeError';

export interface SendShape {
  modelId: string;
  route: RouteId;
  /** The endpoint's catalogue (Settings.catalog); undefined for a custom endpoint. */
  catalog?: EndpointCatalog;
  /** The picker's value for this request (VS Code's model configuration), unvalidated. */
  picked?: unknown;
  /** `opencode.models["<id>"].reasoningEffort`. */
  setting?: EffortChoice;
  /** Parameters this model refused before. */
  refused: ReadonlySet<string>;
}

/**
 * The picked level when it is one we know, else the setting, else "default". A picked "default" is the picker's
 * own default (VS Code may pass the schema's default with every request), so the setting still applies under it.
 */
export function effortChoice(picked: unknown, setting: EffortChoice | undefined): EffortChoice {
  if (EFFORT_LEVELS.includes(picked as never)) return picked as EffortChoice;
  return setting ?? 'default';
}

/** The body one attempt sends for a prepared request: its route, the picked effort, the setting, what the model refused. */
export function attemptBody(prepared: Pick<PreparedRequest, 'body' | 'route' | 'effort' | 'bodyInput'>, settings: Settings, refused: readonly string[]): Record<string, unknown> {
  const modelId = prepared.bodyInput.modelId;
  const shape: SendShape = { modelId, route: prepared.route.id, catalog: settings.catalog, picked: prepared.effort, setting: settings.models?.[modelId]?.reasoningEffort, refused: new Set(refused) };
  return sendBody(prepared.body, shape);
}

export function sendBody(body: Record<string, unknown>, shape: SendShape): Record<string, unknown> {
  // The model table's card on this route only: its fields would not fit another (a setting or a learned switch).
  const entry: RouteCard | undefined = MODEL_TABLE.cardOn(shape.modelId, shape.catalog, shape.route);
  const omitted = new Set(shape.refused);
  let out = body;
  if (entry) {
    const patch = effortFields(entry, effortChoice(shape.picked, shape.setting), { maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined });
    if (patch && Object.keys(patch).length > 0) out = mergeEffort(out, patch);
    if (entry.noTemperature) omitted.add('temperature');
    for (const quirk of routeById(shape.route).attempt.quirks?.(patch) ?? []) omitted.add(quirk);
  }
  return withoutParams(out, omitted, shape.route);
}

const REFUSAL = /unsupported|not supported|unrecognized|unknown|not allowed|extra (inputs|fields)|not permitted|invalid param/i;

/** The parameter a 400 (or a validator's 422) says the model does not accept, if it names one we send. */
export function refusedParamOf(error: unknown): DroppableParam | undefined {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const named = (error.error as { param?: unknown } | undefined)?.param ?? (error as { param?: unknown }).param;
  if (typeof named === 'string' && (DROPPABLE_PARAMS as readonly string[]).includes(named)) return named as DroppableParam;
  if (!REFUSAL.test(error.message)) return undefined;
  return DROPPABLE_PARAMS.find((param) => new RegExp(`\\b${param}\\b`).test(error.message));
}

/**
 * The body without the omitted parameters (refused ones and the catalogue's quirks), on any route: each route has its own field names, so a name is dropped
 * where the body has it; the route says which fields are never dropped and where it keeps parameters below the top
 * level (core/routes/route.ts AttemptRules).
 */
export function withoutParams(body: Record<string, unknown>, omitted: ReadonlySet<string>, routeId: RouteId): Record<string, unknown> {
  if (omitted.size === 0) return body;
  const rules = routeById(routeId).attempt;
  const out: Record<string, unknown> = { ...body };
  for (const param of omitted) if (!rules.required.includes(param)) delete out[param];
  return rules.dropNested ? rules.dropNested(out, omitted) : out;
}

/**
 * A 400 naming a parameter the model does not take: drop it for that model from now on (once per parameter, at most
 * MAX_REFUSED_PARAMS per model); `save` persists the changed table. Returns the parameter learned, if any.
 */
export function learnRefusedParam(known: Record<string, string[]>, modelId: string, error: unknown, log: Logger, save: () => void): string | undefined {
  const refused = refusedParamOf(error);
  const before = known[modelId] ?? [];
  if (!refused || before.includes(refused) || before.length >= MAX_REFUSED_PARAMS) return undefined;
  known[modelId] = [...before, refused];
  save();
  log.warn(`[request] ${outsideText(modelId)} does not accept "${refused}"; sending without it from now on.`);
  return refused;
}

/** One refused route on the way to the one that answered. */
export interface RouteSwitch {
  from: RouteId;
  format: string;
}

/** Pinned routes the gateway refused in this activation: endpoint + model + pinned route → the route that answered. */
export class RefusedPins {
  private readonly answered = new Map<string, RouteId>();

  private static key(baseUrl: string, modelId: string, pinned: RouteId): string {
    return `${baseUrl}\u0000${modelId}\u0000${pinned}`;
  }

  get(baseUrl: string, modelId: string, pinned: RouteId): RouteId | undefined {
    return this.answered.get(RefusedPins.key(baseUrl, modelId, pinned));
  }

  /** True the first time (the caller then tells the user); bounded by the settings the user wrote. */
  note(baseUrl: string, modelId: string, pinned: RouteId, route: RouteId): boolean {
    const key = RefusedPins.key(baseUrl, modelId, pinned);
    const first = !this.answered.has(key);
    this.answered.set(key, route);
    return first;
  }
}

export function chooseRoute(modelId: string, settings: Settings, learned: LearnedRoutes, pins?: RefusedPins, statedApi?: RouteId): RouteChoice {
  const override = settings.models?.[modelId];
  const choice = selectRoute({ modelId, override, learned: learned.get(settings.baseUrl, modelId), catalog: settings.catalog, ...(statedApi ? { listed: { api: statedApi } } : {}) });
  const answered = override?.api && pins?.get(settings.baseUrl, modelId, override.api);
  return answered ? { ...choice, route: answered, source: 'learned', reasons: choice.reasonsOn(answered) } : choice;
}

/** The request on the next route when `error` is a wrong-route refusal (recorded in `switches`), else undefined. */
export function switchedRoute(modelId: string, prepared: PreparedRequest, error: unknown, switches: RouteSwitch[], settings: Pick<Settings, 'catalog'>): PreparedRequest | undefined {
  const refused = openCodeErrorOf(error);
  if (refused?.kind !== 'wrong-route') return undefined;
  const tried = [...switches.map((s) => s.from), prepared.route.id];
  const next = nextRoute(modelId, prepared.route.id, tried, settings.catalog);
  if (!next) return undefined;
  switches.push({ from: prepared.route.id, format: refused.format ?? 'unknown' });
  return bodyFor(prepared, routeById(next));
}

export interface LearnedSwitch {
  line: string;
  /** Persist the learned routes. */
  changed: boolean;
  /** Set the first time a pinned route was refused: the one notification to show. */
  notice?: string;
}

/**
 * Learns the route that answered after a refusal; returns the one [route] line and whether to persist. When the
 * refused route was the setting's, the learned route cannot win over the setting (it ranks below it), so the
 * activation-scoped `pins` carry the answer instead, and the log says so rather than "remembered".
 */
export function learnRoute(learned: LearnedRoutes, baseUrl: string, modelId: string, switches: readonly RouteSwitch[], route: RouteId, pinned?: RouteId, pins?: RefusedPins): LearnedSwitch {
  if (pinned && pins && switches[0].from === pinned) {
    const first = pins.note(baseUrl, modelId, pinned, route);
    return {
      line: `${routeSwitchLine(modelId, pinned, route, switches[0].format, false)} setting=opencode.models.api (using ${route} for this session)`,
      changed: false,
      notice: first ? pinnedRouteNotice(modelId, pinned, route) : undefined,
    };
  }
  const changed = learned.learn(baseUrl, modelId, route);
  return { line: routeSwitchLine(modelId, switches[0].from, route, switches[0].format, changed), changed };
}

export function pinnedRouteNotice(modelId: string, pinned: RouteId, route: RouteId): string {
  return `OpenCode: the setting opencode.models["${outsideText(modelId)}"].api is "${pinned}", but the endpoint refused ${outsideText(modelId)} on that route and answered on "${route}". Using "${route}" for the rest of this session; change or remove the setting to stop this.`;
}
