/** Timers driven by hand (inline scheduler tests): `advance(ms)` runs what falls due, in time order. */
import type { Timers } from '../../core/inline/inlineScheduler';

export class FakeTimers implements Timers {
  private time = 0;
  private nextId = 1;
  private readonly due = new Map<number, { at: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.due.set(id, { at: this.time + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  now(): number {
    return this.time;
  }

  get pending(): number {
    return this.due.size;
  }

  /** Moves time on by `ms`, running each timer that falls due (and letting promises settle between them). */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.due.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!next) break;
      this.due.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
      await flush();
    }
    this.time = end;
    await flush();
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
