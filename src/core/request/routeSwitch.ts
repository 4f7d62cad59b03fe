/**
 * The engine's route decisions: which route a request takes (models/modelTable.ts through selectRoute), and after
 * the gateway's "not supported for format F" the same prepared request on the next route — trim unchanged, only
 * the body rebuilt, each route tried once (docs/routes.md).
 *
 * A route pinned in `opencode.models["<id>"].api` that the gateway refuses: the route that answered is used instead
 * for the rest of the activation (until the window reloads; not persisted: the user may fix the setting), and the user is told once that
 * the setting is wrong — instead of a refusal and a second request on every request.
 */
import type { Settings } from '../config/settings';
import { routeById } from '../routes/registry/registry';
import type { RouteId } from '../routeId';
import type { LearnedRoutes } from '../routes/select/learnedRoutes';
import { routeSwitchLine } from '../routes/select/routeLog';
import { openCodeErrorOf } from './openCodeError';
import { bodyFor, type PreparedRequest } from './prepareRequest';
import { outsideText } from '../util/excerpt';
import { nextRoute, selectRoute } from '../models/modelTable';
import { type RouteChoice } from '../models/modelFacts';

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
