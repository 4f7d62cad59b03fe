/**
 * The one "say it once" rule: a note (a WARN about a model, a store, a truncation) is written the first time
 * its key is seen, not on every request that meets the same thing again. Bounded like every other memory of
 * the extension host, so a long activation with many models or conversations cannot grow it.
 */
import { BoundedMap } from './boundedMap';

export class OnceKeys {
  private readonly seen: BoundedMap<string, true>;

  constructor(capacity = 1_024) {
    this.seen = new BoundedMap(capacity);
  }

  /** True the first time `key` is asked about (while it is remembered), false after. */
  first(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.set(key, true);
    return true;
  }

  /** Lets `key` be said again (what it was about changed, e.g. the store was saved anew). */
  forget(key: string): void {
    this.seen.delete(key);
  }
}

const perLog = new WeakMap<object, OnceKeys>();

/**
 * One OnceKeys per log, i.e. per activation (tests make a fresh log each): for notes said once per model by
 * module-level code that has no instance of its own to keep them in.
 */
export function onceFor(log: object, capacity?: number): OnceKeys {
  let keys = perLog.get(log);
  if (!keys) {
    keys = new OnceKeys(capacity);
    perLog.set(log, keys);
  }
  return keys;
}
