/**
 * A model's route, from the one model table (models/modelTable.ts): the user's per-model setting, what the
 * gateway taught us, the model data for the endpoint's catalogue, the family rule, else Chat Completions. Pure.
 */
import { familyOf } from '../../models/familyRule';
import type { EndpointCatalog } from '../../models/modelData';
import { MODEL_TABLE, type FactSource, type ModelQuery, type ModelTable } from '../../models/modelTable';
import { ROUTE_IDS, type RouteId } from '../../routeId';

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
  const candidates: (RouteId | undefined)[] = [
    table.card(modelId, catalog)?.card.route,
    table.card(modelId, undefined)?.card.route,
    familyOf(modelId, catalog)?.route,
    familyOf(modelId, undefined)?.route,
    ...ROUTE_IDS,
  ];
  return candidates.find((route): route is RouteId => route !== undefined && !excluded.has(route));
}
