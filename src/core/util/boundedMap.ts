/**
 * The one bounded cache of the code base: a Map that forgets its least recently used entry beyond
 * `capacity`. Every memo, per-conversation state and client pool uses it, so none can grow without bound
 * in a long-running extension host. (A Map iterates in insertion order: re-inserting on read makes the
 * first key the least recently used.)
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`BoundedMap capacity must be at least 1, got ${capacity}`);
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
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

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  /** The entry for `key` (now the most recently used), made by `create` and kept when there was none. */
  getOrCreate(key: K, create: () => V): V {
    const value = this.get(key);
    if (value !== undefined) return value;
    const created = create();
    this.set(key, created);
    return created;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Oldest first. */
  entriesInOrder(): IterableIterator<[K, V]> {
    return this.entries.entries();
  }
}
