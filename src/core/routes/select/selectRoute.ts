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
  /** The model reasons (catalogue / table); on Gemini assumed unless the catalogue says it does not. */
  reasoning: boolean;
  /** The same rule on another route (a switch after "not supported for format" rebuilds the body for it). */
  reasoningOn: (route: RouteId) => boolean;
}

export interface RouteQuery {
  modelId: string;
  override?: ModelOverride;
  learned?: RouteId;
  catalog?: Catalog;
}

export function selectRoute(query: RouteQuery): RouteChoice {
  const family = tableFamily(query.modelId, query.catalog);
  const [route, source]: [RouteId, RouteSource] = query.override?.api
    ? [query.override.api, 'setting']
    : query.learned
      ? [query.learned, 'learned']
      : family
        ? [family.route, 'table']
        : ['chat', 'default'];
  const reasoningOn = (on: RouteId): boolean => (on === 'gemini' ? family?.reasoning !== false : family?.reasoning === true);
  return { route, source, reasoning: reasoningOn(route), reasoningOn };
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
