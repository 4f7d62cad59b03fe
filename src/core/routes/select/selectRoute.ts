/**
 * A model's route, in order: the user's per-model setting, what the gateway taught us (persisted), the bundled
 * table for the endpoint's catalogue, else Chat Completions. Pure.
 */
import { ROUTE_IDS, type RouteId } from '../route';
import type { ModelOverride } from './modelOverrides';
import { tableFamily, type Catalog } from './routeTable';

export type RouteSource = 'setting' | 'learned' | 'table' | 'default';

export interface RouteChoice {
  route: RouteId;
  source: RouteSource;
  /** Responses reasoning model (from the table). */
  reasoning: boolean;
}

export interface RouteQuery {
  modelId: string;
  override?: ModelOverride;
  learned?: RouteId;
  catalog?: Catalog;
}

export function selectRoute(query: RouteQuery): RouteChoice {
  const family = tableFamily(query.modelId, query.catalog);
  const reasoning = family?.reasoning === true;
  if (query.override?.api) return { route: query.override.api, source: 'setting', reasoning };
  if (query.learned) return { route: query.learned, source: 'learned', reasoning };
  if (family) return { route: family.route, source: 'table', reasoning };
  return { route: 'chat', source: 'default', reasoning };
}

/**
 * After "not supported for format F" on `failed`: the route to try next — the table's, then the route the same
 * family takes in the other catalogue, then the others in a fixed order — never one already tried.
 */
export function nextRoute(modelId: string, failed: RouteId, tried: readonly RouteId[], catalog?: Catalog): RouteId | undefined {
  const excluded = new Set<RouteId>([failed, ...tried]);
  const candidates: (RouteId | undefined)[] = [
    tableFamily(modelId, catalog)?.route,
    tableFamily(modelId, catalog === 'go' ? 'zen' : 'go')?.route,
    ...ROUTE_IDS,
  ];
  return candidates.find((route): route is RouteId => route !== undefined && !excluded.has(route));
}
