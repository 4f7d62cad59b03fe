/**
 * The one way state is kept in VS Code's globalState: every store is loaded through a validator, so a
 * record from an older version, a hand edit or a corrupt file can never break a request. Invalid records are
 * dropped (never repaired silently), with one WARN line per store; saving goes through here too.
 */
import * as v from 'valibot';
import type { Logger } from '../log';
import { OnceKeys } from '../util/onceKeys';
import { isRecord } from '../util/jsonFields';

export interface KeyValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void> | void;
}

/** A record's valid form, or undefined when it must be dropped. Never throws. */
export type Validate<V> = (value: unknown) => V | undefined;

/** A schema as a Validate (persisted.ts): the parsed value, or undefined when the record must be dropped. Never throws. */
export function validator<T>(schema: v.GenericSchema<unknown, T>): (value: unknown) => T | undefined {
  return (value) => {
    const result = v.safeParse(schema, value);
    return result.success ? result.output : undefined;
  };
}

/** An integer schema within [min, max], the bound every saved count and limit uses. */
export const integer = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

export interface Loaded<V> {
  entries: [string, V][];
  /** Records that failed their validator (or a store that is not an object: one). */
  dropped: number;
  /** Valid records let go because the store holds more than its capacity (the oldest). */
  overCapacity: number;
}

/**
 * The valid entries of a persisted map (newest last, at most `capacity`, the newest kept). Anything that is
 * not an object counts as one dropped record; valid entries beyond the capacity are counted apart (not invalid).
 */
export function validEntries<V>(raw: unknown, validate: Validate<V>, capacity = Infinity): Loaded<V> {
  if (raw === undefined || raw === null) return { entries: [], dropped: 0, overCapacity: 0 };
  if (!isRecord(raw)) return { entries: [], dropped: 1, overCapacity: 0 };
  const entries: [string, V][] = [];
  let dropped = 0;
  for (const [key, value] of Object.entries(raw)) {
    const valid = key ? validate(value) : undefined;
    if (valid === undefined) dropped++;
    else entries.push([key, valid]);
  }
  const over = Math.max(0, entries.length - capacity);
  return { entries: entries.slice(over), dropped, overCapacity: over };
}

export class PersistedStore {
  /** Stores already warned about, so a store read on every request warns once. */
  private readonly warned = new OnceKeys(64);

  constructor(
    private readonly store: KeyValueStore,
    private readonly log?: Logger,
  ) {}

  /** A persisted map, each entry validated. */
  loadMap<V>(key: string, validate: Validate<V>, capacity?: number): [string, V][] {
    const loaded = validEntries(this.read(key), validate, capacity);
    this.warnDropped(key, loaded.dropped, loaded.overCapacity, loaded.entries.length);
    return loaded.entries;
  }

  /** A single persisted value; `dropped` lets a validator report parts it left out (e.g. bad list items). */
  loadValue<V>(key: string, validate: (value: unknown) => { value?: V; dropped: number }): V | undefined {
    const raw = this.read(key);
    if (raw === undefined || raw === null) return undefined;
    const result = validate(raw);
    this.warnDropped(key, result.value === undefined ? Math.max(1, result.dropped) : result.dropped);
    return result.value;
  }

  /** Saves; says whether it worked. A failure is logged, never thrown (the value is still in memory). */
  save(key: string, value: unknown): Promise<boolean> {
    this.warned.forget(key);
    const failed = (error: unknown): boolean => {
      this.log?.warn(`[state] Could not save ${key}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    };
    try {
      return Promise.resolve(this.store.update(key, value)).then(() => true, failed);
    } catch (error) {
      return Promise.resolve(failed(error));
    }
  }

  /** Something is saved under the key (valid or not). */
  has(key: string): boolean {
    return this.read(key) !== undefined;
  }

  private read(key: string): unknown {
    try {
      return this.store.get(key);
    } catch {
      return undefined;
    }
  }

  private warnDropped(key: string, dropped: number, overCapacity = 0, kept = 0): void {
    if ((dropped === 0 && overCapacity === 0) || !this.warned.first(key)) return;
    if (dropped > 0) this.log?.warn(`[state] Dropped ${dropped} invalid record(s) from ${key} (saved by another version or edited by hand); they will be learned again.`);
    // Valid entries beyond the capacity are not invalid: the store only keeps the newest (and says so at info level).
    if (overCapacity > 0) this.log?.info(`[state] Kept the newest ${kept} entries of ${key} (its limit); ${overCapacity} older one(s) let go.`);
  }
}
