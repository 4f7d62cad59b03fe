/**
 * A large memory (native replay layouts, remembered reasoning: up to 8M characters each) persisted in chunks, so
 * one answer re-serializes only the chunk it changed, not the whole memory (issue 29 item 1, saved state).
 *
 * Layout in the store, under the memory's key K:
 * - `K.index` = `{ v: 1, chunks: [ids…] }`: the live chunks, oldest first;
 * - `K.<id>` = `{ entryKey: value, … }`: one chunk, its entries in the order they were remembered.
 * An entry remembered goes to the open (newest) chunk; a chunk over `maxChunkWeight` is closed and the next one
 * opened; an entry let go (evicted, replaced) dirties the chunk that held it; a chunk left empty is deleted. So one
 * answer writes the open chunk, plus a chunk it evicted from, plus the small index when the chunk list changed.
 * A recency refresh (a layout sent again) moves the entry to the open chunk too, so chunk order then entry order is
 * the memory's recency order, and a reloaded memory evicts in the order the saved one would have. A conversation's
 * entries gather in the open chunk after its first request, so later requests rewrite only that chunk.
 *
 * Crash safety (a write sequence stopped anywhere): new chunks first, then an index listing them beside every chunk
 * still saved, then saved chunks that gained entries (newest first: an entry only moves to a newer chunk), then
 * those that only lost entries, then emptied chunks, then the index as it is now. An entry is then always in at least one listed chunk from its
 * last complete flush onwards; a duplicate (moved to the open chunk, still in its old chunk) loads as the newer.
 */
import * as v from 'valibot';
import type { PersistedStore, Validate } from './persisted';

/** A chunk's weight before it is closed (the memory's own weights: characters of the JSON). */
export const MAX_CHUNK_WEIGHT = 256_000;
/** More chunks than this in a saved index is not this version's: the rest are not read (hostile input). */
export const MAX_CHUNKS = 512;

const INDEX = v.object({ v: v.literal(1), chunks: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER))), v.maxLength(MAX_CHUNKS)) });

export const indexKey = (key: string): string => `${key}.index`;
export const chunkKey = (key: string, id: number): string => `${key}.${id}`;

export interface ChunkedSource<V> {
  /** The memory's live entries, read without refreshing recency. */
  peek(entryKey: string): V | undefined;
}

export class ChunkedMap<V> {
  private readonly chunkOf = new Map<string, number>();
  private readonly weights = new Map<string, number>();
  private readonly chunkWeight = new Map<number, number>();
  private readonly dirty = new Set<number>();
  /** Dirty chunks that gained an entry (written first: an entry only moves to a newer chunk). */
  private readonly gained = new Set<number>();
  private open = 0;
  private indexDirty = false;
  /** The chunks the saved index lists (as far as this map wrote it). */
  private saved = new Set<number>();
  /** Set while loading: entries placed then are already saved where they are. */
  private loading = false;
  /** The whole map was saved under the bare key by an older version: cleared after the first complete flush. */
  private legacy = false;

  constructor(
    readonly key: string,
    private readonly maxChunkWeight = MAX_CHUNK_WEIGHT,
  ) {}

  /** BoundedMap.onChange of the memory: an entry kept (its weight) or let go (undefined). */
  readonly changed = (entryKey: string, weight: number | undefined): void => {
    const held = this.chunkOf.get(entryKey);
    if (held !== undefined) this.remove(entryKey, held);
    if (weight === undefined) return;
    const openWeight = this.chunkWeight.get(this.open) ?? 0;
    if (!this.loading && openWeight > 0 && openWeight + weight > this.maxChunkWeight) {
      this.open++;
      this.indexDirty = true;
    }
    this.chunkOf.set(entryKey, this.open);
    this.weights.set(entryKey, weight);
    this.chunkWeight.set(this.open, (this.chunkWeight.get(this.open) ?? 0) + weight);
    if (!this.loading) {
      if (openWeight === 0) this.indexDirty = true;
      this.dirty.add(this.open);
      this.gained.add(this.open);
    }
  };

  get hasChanges(): boolean {
    return this.dirty.size > 0 || this.indexDirty || this.legacy;
  }

  /**
   * Reads the saved chunks (each validated entry by entry, like every store) and hands their entries to `insert`
   * oldest first; the memory's bounds then apply as it inserts (what they let go dirties its chunk). Falls back to
   * the bare key an older version saved the whole map under.
   */
  load(store: PersistedStore, validate: Validate<V>, capacity: number, insert: (entryKey: string, value: V) => void): void {
    const index = store.loadValue(indexKey(this.key), (raw) => {
      const parsed = v.safeParse(INDEX, raw);
      return parsed.success ? { value: parsed.output, dropped: 0 } : { dropped: 1 };
    });
    if (!index) {
      const entries = store.loadMap(this.key, validate, capacity);
      this.legacy = entries.length > 0 || store.has(this.key);
      for (const [k, value] of entries) insert(k, value);
      return;
    }
    const ids = [...new Set(index.chunks)].sort((a, b) => a - b);
    this.saved = new Set(ids);
    this.loading = true;
    try {
      for (const id of ids) {
        this.open = id;
        for (const [k, value] of store.loadMap(chunkKey(this.key, id), validate, capacity)) insert(k, value);
      }
    } finally {
      this.loading = false;
    }
    // A listed chunk that holds nothing now (missing, invalid or let go) leaves the index.
    if (ids.some((id) => !this.chunkWeight.get(id))) this.indexDirty = true;
  }

  /** The writes that bring the store up to date, in crash-safe order (see the file comment); clears the dirt. */
  takeWrites(source: ChunkedSource<V>): [string, unknown][] {
    const dirty = [...this.dirty];
    const gained = [...this.gained].filter((id) => this.dirty.has(id)).sort((a, b) => b - a);
    this.dirty.clear();
    this.gained.clear();
    const live = (id: number): boolean => (this.chunkWeight.get(id) ?? 0) > 0;
    const chunkWrite = (id: number): [string, unknown] => [chunkKey(this.key, id), this.chunk(id, source)];
    const index = (chunks: Iterable<number>): [string, unknown] => [indexKey(this.key), { v: 1, chunks: [...new Set(chunks)].sort((a, b) => a - b) }];
    const writes: [string, unknown][] = [];
    const fresh = gained.filter((id) => live(id) && !this.saved.has(id));
    // 1. New chunks (newest first), 2. an index listing them beside every chunk still saved: an entry that moved is
    // in a listed chunk before it leaves its old one.
    for (const id of fresh) writes.push(chunkWrite(id));
    if (fresh.length > 0) writes.push(index([...this.saved, ...fresh]));
    // 3. Saved chunks that gained entries, newest first (an entry only moves to a newer chunk), 4. those that only lost.
    for (const id of gained) if (live(id) && !fresh.includes(id)) writes.push(chunkWrite(id));
    for (const id of dirty) if (!gained.includes(id) && live(id)) writes.push(chunkWrite(id));
    // 5. Emptied chunks, then 6. the index as it is now.
    for (const id of dirty) if (!live(id)) writes.push([chunkKey(this.key, id), undefined]);
    for (const id of dirty) if (!live(id)) this.chunkWeight.delete(id);
    const now = [...this.chunkWeight.keys()].filter(live);
    if (this.indexDirty || this.legacy || now.length !== this.saved.size || now.some((id) => !this.saved.has(id))) writes.push(index(now));
    this.indexDirty = false;
    this.saved = new Set(now);
    if (this.legacy) {
      writes.push([this.key, undefined]);
      this.legacy = false;
    }
    return writes;
  }

  /** Puts back dirt whose writes did not complete (a failed save): they are written again next time. */
  retry(writes: readonly [string, unknown][]): void {
    for (const [storeKey] of writes) {
      if (storeKey === indexKey(this.key)) this.indexDirty = true;
      else if (storeKey === this.key) this.legacy = true;
      else {
        const id = Number(storeKey.slice(this.key.length + 1));
        this.dirty.add(id);
        this.gained.add(id);
      }
    }
  }

  private chunk(id: number, source: ChunkedSource<V>): Record<string, V> {
    const out: Record<string, V> = {};
    for (const [k, chunk] of this.chunkOf) {
      if (chunk !== id) continue;
      const value = source.peek(k);
      if (value !== undefined) out[k] = value;
    }
    return out;
  }

  private remove(entryKey: string, chunk: number): void {
    const weight = this.weights.get(entryKey) ?? 0;
    this.chunkOf.delete(entryKey);
    this.weights.delete(entryKey);
    const left = (this.chunkWeight.get(chunk) ?? 0) - weight;
    this.chunkWeight.set(chunk, this.chunkOf.size === 0 || left < 1e-9 ? 0 : left);
    this.dirty.add(chunk);
    if (!this.chunkWeight.get(chunk)) this.indexDirty = true;
  }
}

/** A bounded memory that can be persisted in chunks (NativeReplayMemory, ReasoningMemory). */
export interface ChunkedMemory<V> extends ChunkedSource<V> {
  observe(listener: (entryKey: string, weight: number | undefined) => void): void;
  restoreEntry(entryKey: string, value: V): void;
}

/** Loads `memory` from its chunks (or an older version's whole map) and returns the map that tracks its changes. */
export function loadChunked<V>(store: PersistedStore, key: string, memory: ChunkedMemory<V>, validate: Validate<V>, capacity: number): ChunkedMap<V> {
  const map = new ChunkedMap<V>(key);
  memory.observe(map.changed);
  map.load(store, validate, capacity, (entryKey, value) => memory.restoreEntry(entryKey, value));
  return map;
}
