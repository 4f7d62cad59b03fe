/**
 * The saved model list (the last /models answer per endpoint): its schema, applied once per load. A list without a
 * real fetch time is dropped (it would never go stale); bad or duplicate entries are left out and counted.
 */
import * as v from 'valibot';
import { integer, validator } from '../state/persisted';
import type { ModelEntry } from '../types';
import { ROUTE_IDS } from '../routeId';
import { MAX_CONTEXT_WINDOW } from './learnedLimits';

const nonNegative = v.pipe(v.number(), v.finite(), v.minValue(0));
const LIMIT_SOURCES = ['endpoint', 'bundled', 'learned', 'fallback', 'setting', 'unknown'] as const satisfies readonly ModelEntry['limitSource'][];
const tokenLimit = v.optional(integer(1, MAX_CONTEXT_WINDOW));

/** A cached model entry: its known fields only (others are left out). */
export const validModelEntry = validator<ModelEntry>(
  v.object({ id: v.pipe(v.string(), v.minLength(1)), name: v.string(), toolCalling: v.boolean(), imageInput: v.boolean(), limitSource: v.picklist(LIMIT_SOURCES), contextWindow: tokenLimit, maxOutputTokens: tokenLimit, api: v.optional(v.picklist(ROUTE_IDS)) }),
);

export interface CachedModelList {
  fetchedAt: number;
  models: ModelEntry[];
}

// A time in the future would keep the list from ever going stale.
const listShape = v.object({ fetchedAt: v.pipe(nonNegative, v.check((t) => t <= Date.now() + 60_000)), models: v.array(v.unknown()) });

/** A cached list needs a real fetch time (else it would never be refreshed); bad or duplicate entries are left out. */
export function validModelList(value: unknown): { value?: CachedModelList; dropped: number } {
  const list = v.safeParse(listShape, value);
  if (!list.success) return { dropped: 1 };
  const seen = new Set<string>();
  const models: ModelEntry[] = [];
  for (const raw of list.output.models) {
    const entry = validModelEntry(raw);
    if (entry && !seen.has(entry.id)) {
      seen.add(entry.id);
      models.push(entry);
    }
  }
  return { value: { fetchedAt: list.output.fetchedAt, models }, dropped: list.output.models.length - models.length };
}
