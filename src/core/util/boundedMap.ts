/**
 * The one bounded cache of the code base: a Map that forgets its least recently used entries beyond
 * `capacity` and, when given a weight bound, beyond a total weight. Every memo, per-conversation state and
 * client pool uses it, so none can grow without bound in a long-running extension host. (A Map iterates in
 * insertion order: re-inserting on read makes the first key the least recently used.) PerModel is the bounded map of
 * one value per model that globalState persists.
 */

/** A bound on the sum of the entries' weights (e.g. the characters of their JSON), next to the entry count. */
export interface WeightBound<K, V> {
  /** An entry's weight: finite and ≥ 0, weighed once when the entry is set (values are not changed in place). */
  weigh: (value: V, key: K) => number;
  /** The total the entries may weigh; an entry heavier than this alone is not kept at all. */
  maxWeight: number;
}

export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  /** Each entry's weight, when weighed (same keys as `entries`). */
  private readonly weights = new Map<K, number>();
  private weightSum = 0;
  /**
   * Told of every entry kept or refreshed by get() (with its weight, 0 without a weight bound) and every entry let go
   * (undefined), evictions included; peek() tells nothing. The chunked writer (core/state/chunkedMap.ts) tracks what changed with it.
   */
  onChange?: (key: K, weight: number | undefined) => void;

  constructor(
    readonly capacity: number,
    private readonly bound?: WeightBound<K, V>,
  ) {
    if (!(capacity >= 1)) throw new RangeError(`BoundedMap capacity must be at least 1, got ${capacity}`);
    if (bound && !(bound.maxWeight > 0)) throw new RangeError(`BoundedMap maxWeight must be above 0, got ${bound.maxWeight}`);
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
      this.onChange?.(key, this.weights.get(key) ?? 0);
    }
    return value;
  }

  /** Reads without refreshing the entry's recency (for serialization and inspection). */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /**
   * Sets the entry as the most recently used, then forgets the least recently used entries until both bounds
   * hold (the longest tail of the recency order that fits is kept). An entry heavier than maxWeight on its own
   * can never fit: it is not kept (nor an older value of its key), and nothing else is evicted for it.
   */
  set(key: K, value: V): this {
    const weight = this.weighed(key, value);
    this.delete(key);
    if (this.bound && weight > this.bound.maxWeight) return this;
    this.entries.set(key, value);
    if (this.bound) {
      this.weights.set(key, weight);
      this.weightSum += weight;
    }
    this.onChange?.(key, weight);
    while (this.entries.size > this.capacity || (this.bound && this.entries.size > 0 && this.weightSum > this.bound.maxWeight)) this.delete(this.entries.keys().next().value as K);
    return this;
  }

  /** The entry for `key` (now the most recently used), made by `create` and kept when there was none (and it fits). */
  getOrCreate(key: K, create: () => V): V {
    const value = this.get(key);
    if (value !== undefined) return value;
    const created = create();
    this.set(key, created);
    return created;
  }

  delete(key: K): boolean {
    const weight = this.weights.get(key);
    if (weight !== undefined) {
      this.weights.delete(key);
      // Back to exactly 0 when empty, so rounding in a long run of float weights cannot pile up.
      this.weightSum = this.weights.size > 0 ? this.weightSum - weight : 0;
    }
    const had = this.entries.delete(key);
    if (had) this.onChange?.(key, undefined);
    return had;
  }

  clear(): void {
    if (this.onChange) for (const key of [...this.entries.keys()]) this.onChange(key, undefined);
    this.entries.clear();
    this.weights.clear();
    this.weightSum = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the entries' weights (0 without a weight bound). */
  get weight(): number {
    return this.weightSum;
  }

  /** Oldest first. */
  entriesInOrder(): IterableIterator<[K, V]> {
    return this.entries.entries();
  }

  private weighed(key: K, value: V): number {
    if (!this.bound) return 0;
    const weight = this.bound.weigh(value, key);
    if (!(weight >= 0 && Number.isFinite(weight))) throw new RangeError(`BoundedMap weight must be a finite number ≥ 0, got ${weight}`);
    return weight;
  }
}

/**
 * A bounded memory keyed by an answer's first call id (the reasoning memory, the native replay memory): what both
 * give the state writer (core/state/chunkedMap.ts ChunkedMemory) and their saved form, in one place.
 */
export abstract class CallIdMemory<V> {
  protected constructor(protected readonly byCallId: BoundedMap<string, V>) {}

  get size(): number {
    return this.byCallId.size;
  }

  /** Told of every entry kept or let go (core/state/chunkedMap.ts tracks what to write with it). */
  observe(listener: (callId: string, weight: number | undefined) => void): void {
    this.byCallId.onChange = listener;
  }

  /** A kept entry, without refreshing recency (for writing it). */
  peek(callId: string): V | undefined {
    return this.byCallId.peek(callId);
  }

  /** The saved form, least recently used first (a load keeps the order and so evicts the same way). */
  toJSON(): Record<string, V> {
    return Object.fromEntries(this.byCallId.entriesInOrder());
  }

  /** One saved entry (already validated) back into the memory, oldest first, under its bounds. */
  abstract restoreEntry(callId: string, saved: V): void;
}

/** How many models a per-model table keeps, in memory and when loaded from globalState. */
export const MAX_MODELS = 1_000;

/**
 * One value per model, kept in memory and persisted in globalState as a plain `{ model: value }` object: the
 * calibration of each model (trim/trimState.ts) and the context windows learned from errors
 * (models/learnedLimits.ts) are both one. Bounded like every map here; what it is built from was validated on
 * load (persisted.ts with a validator from request/savedRecords.ts and models/learnedLimits.ts) and is taken as is.
 */
export class PerModel<V> {
  private readonly values = new BoundedMap<string, V>(MAX_MODELS);

  constructor(saved: Readonly<Record<string, V>> = {}) {
    for (const [model, value] of Object.entries(saved)) this.values.set(model, value);
  }

  get(model: string): V | undefined {
    return this.values.get(model);
  }

  set(model: string, value: V): void {
    this.values.set(model, value);
  }

  /** The persisted form, least recently used first (a load that must drop some keeps the newest). */
  toJSON(): Record<string, V> {
    return Object.fromEntries(this.values.entriesInOrder());
  }
}
