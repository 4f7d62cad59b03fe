/**
 * The one writer of an engine's saved state (issue 29 item 1): off the request path, only what changed, flushed on
 * deactivate. A change marks its store key dirty with a way to produce the value; nothing is serialized then. A
 * single timer (`delayMs` after the first change, not pushed back by later ones, so a busy session still saves)
 * writes each dirty key once, whatever the number of answers in between; a chunked memory (chunkedMap.ts) writes
 * only its changed chunks. A failed write stays dirty and is tried again at the next flush (the next change or deactivate): never in a loop.
 */
import type { ChunkedMap, ChunkedSource } from './chunkedMap';
import type { PersistedStore } from './persisted';

/** After the first change, how long the writer waits before writing (more changes in between are written together). */
export const WRITE_DELAY_MS = 2_000;

export interface WriterTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const NODE_TIMERS: WriterTimers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // Never keeps a process (a test, the bench) alive: deactivate flushes what is left.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Chunked {
  map: ChunkedMap<unknown>;
  source: ChunkedSource<unknown>;
}

export class StateWriter {
  private readonly dirty = new Map<string, () => unknown>();
  private readonly chunked = new Map<string, Chunked>();
  private timer: unknown;

  constructor(
    private readonly store: PersistedStore,
    private readonly delayMs = WRITE_DELAY_MS,
    private readonly timers: WriterTimers = NODE_TIMERS,
  ) {}

  /** The key's value changed; `value` is called when it is written (at most once per flush). */
  changed(key: string, value: () => unknown): void {
    this.dirty.set(key, value);
    this.schedule();
  }

  /** A chunked memory: its changes are tracked by the map itself; this says something may have changed. */
  chunkedChanged<V>(map: ChunkedMap<V>, source: ChunkedSource<V>): void {
    this.chunked.set(map.key, { map: map as ChunkedMap<unknown>, source: source as ChunkedSource<unknown> });
    if (map.hasChanges) this.schedule();
  }

  /** Something tracked by a chunked memory may have changed: written at the next flush when it did. */
  touch(): void {
    if (this.pending) this.schedule();
  }

  get pending(): boolean {
    return this.dirty.size > 0 || [...this.chunked.values()].some((c) => c.map.hasChanges);
  }

  /**
   * Writes everything dirty now: every write is started here, in order (a store such as VS Code's Memento applies
   * them in that order); resolves when all are done. `delayMs` 0 writes at each change (tests, the bench's baseline).
   */
  flush(): Promise<void> {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const started: Promise<void>[] = [];
    const plain = [...this.dirty];
    this.dirty.clear();
    for (const [key, value] of plain) {
      started.push(this.store.save(key, value()).then((ok) => void (ok || this.dirty.has(key) || this.dirty.set(key, value))));
    }
    for (const { map, source } of this.chunked.values()) {
      for (const write of map.takeWrites(source)) started.push(this.store.save(write[0], write[1]).then((ok) => void (ok || map.retry([write]))));
    }
    return Promise.all(started).then(() => undefined);
  }

  private schedule(): void {
    if (this.delayMs <= 0) return void this.flush();
    if (this.timer !== undefined) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
  }
}
