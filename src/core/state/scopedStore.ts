/**
 * Each endpoint's engine keeps its learned limits, calibrations, trim states, routes and the rest under its own keys
 * (`<key>@<endpoint id>`), so two endpoints serving the same model id never share them (docs/endpoints.md).
 */
import type { KeyValueStore } from './persisted';

export function scopedKey(key: string, endpointId: string): string {
  return `${key}@${endpointId}`;
}

/**
 * `readsUnscoped` (the default endpoint): a key its scope does not hold yet is read from the bare key, so its state from
 * before scopes is found even before moveUnscopedState() has run.
 */
export function scopedStore(store: KeyValueStore, endpointId: string, readsUnscoped = false): KeyValueStore {
  return {
    get: (key) => {
      const value = store.get(scopedKey(key, endpointId));
      return value === undefined && readsUnscoped ? store.get(key) : value;
    },
    update: (key, value) => store.update(scopedKey(key, endpointId), value),
  };
}

/**
 * Before endpoints had scopes, one endpoint's state lived under the bare keys: it moves once to the default endpoint's
 * scope (the endpoint it was learned on). Returns the keys moved.
 */
export async function moveUnscopedState(store: KeyValueStore, keys: readonly string[], endpointId: string): Promise<string[]> {
  const moved: string[] = [];
  for (const key of keys) {
    const value = store.get(key);
    // A scope that already holds a value was written by this version: the bare value is left where it is, untouched.
    if (value === undefined || store.get(scopedKey(key, endpointId)) !== undefined) continue;
    await store.update(scopedKey(key, endpointId), value);
    await store.update(key, undefined);
    moved.push(key);
  }
  return moved;
}
