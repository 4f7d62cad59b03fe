/**
 * Routes learned from the gateway ("Model X is not supported for format F" → the route that then worked), per
 * endpoint and model, persisted (globalState) so the wrong route is tried once per model, not once per
 * activation. Loaded defensively: anything malformed in the stored record is dropped.
 */
import { BoundedMap } from '../../util/boundedMap';
import { isRouteId, type RouteId } from '../../routeId';
import { isRecord } from '../../util/jsonFields';

export interface LearnedRoute {
  route: RouteId;
  /** Epoch ms, for the log and to let a stale record be recognized. */
  learnedAt: number;
}

const MAX_ENTRIES = 500;

function keyOf(endpoint: string, modelId: string): string {
  return `${endpoint}\u0000${modelId}`;
}

export class LearnedRoutes {
  private readonly byKey = new BoundedMap<string, LearnedRoute>(MAX_ENTRIES);

  get(endpoint: string, modelId: string): RouteId | undefined {
    return this.byKey.get(keyOf(endpoint, modelId))?.route;
  }

  /** True when this changed what was known (the caller persists and logs only then). */
  learn(endpoint: string, modelId: string, route: RouteId, now = Date.now()): boolean {
    if (this.get(endpoint, modelId) === route) return false;
    this.byKey.set(keyOf(endpoint, modelId), { route, learnedAt: now });
    return true;
  }

  forget(endpoint: string, modelId: string): void {
    this.byKey.delete(keyOf(endpoint, modelId));
  }

  get size(): number {
    return this.byKey.size;
  }

  toJSON(): { version: 1; entries: [string, string, LearnedRoute][] } {
    const entries: [string, string, LearnedRoute][] = [];
    for (const [key, value] of this.byKey.entriesInOrder()) {
      const [endpoint, modelId] = key.split('\u0000');
      entries.push([endpoint, modelId, value]);
    }
    return { version: 1, entries };
  }

  static fromJSON(value: unknown): LearnedRoutes {
    const learned = new LearnedRoutes();
    if (!isRecord(value) || value.version !== 1 || !Array.isArray(value.entries)) return learned;
    for (const entry of value.entries) {
      if (!Array.isArray(entry) || entry.length !== 3) continue;
      const [endpoint, modelId, record] = entry as unknown[];
      if (typeof endpoint !== 'string' || typeof modelId !== 'string' || !modelId || endpoint.includes('\u0000') || modelId.includes('\u0000')) continue;
      if (!isRecord(record) || !isRouteId(record.route) || typeof record.learnedAt !== 'number' || !Number.isFinite(record.learnedAt)) continue;
      learned.byKey.set(keyOf(endpoint, modelId), { route: record.route, learnedAt: record.learnedAt });
    }
    return learned;
  }
}
