/**
 * The engine's route decisions: which route a request takes (the setting, what was learned, the table for the
 * endpoint's catalogue, else chat), and after the gateway's "not supported for format F" the same prepared
 * request on the next route — trim unchanged, only the body rebuilt, each route tried once (docs/routes.md).
 */
import type { Settings } from '../config/settings';
import { routeById } from '../routes/registry';
import type { RouteId } from '../routes/route';
import type { LearnedRoutes } from '../routes/select/learnedRoutes';
import { routeSwitchLine } from '../routes/select/routeLog';
import { catalogOf } from '../routes/select/routeTable';
import { nextRoute, selectRoute, type RouteChoice } from '../routes/select/selectRoute';
import { openCodeErrorOf } from './openCodeError';
import { bodyFor, type PreparedRequest } from './prepareRequest';

/** One refused route on the way to the one that answered. */
export interface RouteSwitch {
  from: RouteId;
  format: string;
}

export function chooseRoute(modelId: string, settings: Settings, learned: LearnedRoutes): RouteChoice {
  return selectRoute({
    modelId,
    override: settings.models?.[modelId],
    learned: learned.get(settings.baseUrl, modelId),
    catalog: catalogOf(settings.baseUrl),
  });
}

/** The request on the next route when `error` is a wrong-route refusal (recorded in `switches`), else undefined. */
export function switchedRoute(modelId: string, prepared: PreparedRequest, error: unknown, switches: RouteSwitch[], baseUrl: string): PreparedRequest | undefined {
  const refused = openCodeErrorOf(error);
  if (refused?.kind !== 'wrong-route') return undefined;
  const tried = [...switches.map((s) => s.from), prepared.route.id];
  const next = nextRoute(modelId, prepared.route.id, tried, catalogOf(baseUrl));
  if (!next) return undefined;
  switches.push({ from: prepared.route.id, format: refused.format ?? 'unknown' });
  return bodyFor(prepared, routeById(next));
}

/** Learns the route that answered after a refusal; returns the one [route] line and whether to persist. */
export function learnRoute(learned: LearnedRoutes, baseUrl: string, modelId: string, switches: readonly RouteSwitch[], route: RouteId): { line: string; changed: boolean } {
  const changed = learned.learn(baseUrl, modelId, route);
  return { line: routeSwitchLine(modelId, switches[0].from, route, switches[0].format, changed), changed };
}
