/**
 * When an inline request may run: after `debounceMs` of quiet, never two at once (a newer call stops the
 * older, waiting or in flight), stopped when the editor cancels (the user typed on), and stopped when it
 * takes longer than `maxLatencyMs`. `run` does all the work, the prompt included, so nothing but a timer
 * happens per keystroke. Nothing here blocks: every wait is a timer. The timers are injected so
 * tests drive them by hand (no sleeps).
 */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const REAL_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export type Scheduled<T> =
  | { kind: 'done'; value: T; latencyMs: number }
  /** Never sent: a newer call came, or the editor cancelled, during the quiet time. */
  | { kind: 'skipped' }
  /** Sent and stopped: by a newer call or the editor (`cancelled`), or by the latency budget (`timeout`). */
  | { kind: 'cancelled' | 'timeout'; latencyMs: number }
  /** The request failed on its own (no key, an HTTP error). */
  | { kind: 'failed'; error: unknown; latencyMs: number };

export interface ScheduleOptions {
  debounceMs: number;
  maxLatencyMs: number;
  /** The editor's cancellation (VS Code's token, as a signal). */
  signal?: AbortSignal;
  /** Asked when the quiet time ends: false (the document changed meanwhile) and nothing is sent (`skipped`). */
  current?: () => boolean;
}

export class InlineScheduler {
  private stopCurrent?: () => void;

  constructor(private readonly timers: Timers = REAL_TIMERS) {}

  schedule<T>(run: (signal: AbortSignal) => Promise<T>, options: ScheduleOptions): Promise<Scheduled<T>> {
    this.stopCurrent?.();
    return new Promise<Scheduled<T>>((resolve) => {
      const controller = new AbortController();
      let started: number | undefined;
      let settled = false;
      let timer: unknown;
      const finish = (result: Scheduled<T>): void => {
        if (settled) return;
        settled = true;
        this.timers.clearTimeout(timer);
        options.signal?.removeEventListener('abort', stop);
        if (this.stopCurrent === stop) this.stopCurrent = undefined;
        resolve(result);
      };
      const elapsed = (): number => this.timers.now() - (started ?? this.timers.now());
      const stop = (): void => {
        controller.abort();
        finish(started === undefined ? { kind: 'skipped' } : { kind: 'cancelled', latencyMs: elapsed() });
      };
      this.stopCurrent = stop;
      if (options.signal?.aborted) return stop();
      options.signal?.addEventListener('abort', stop);
      timer = this.timers.setTimeout(() => {
        if (options.current && !options.current()) return stop();
        started = this.timers.now();
        timer = this.timers.setTimeout(() => {
          controller.abort();
          finish({ kind: 'timeout', latencyMs: elapsed() });
        }, options.maxLatencyMs);
        // A throw inside run (the prompt builder's) becomes a failure, not an uncaught error in a timer.
        new Promise<T>((resolveRun) => resolveRun(run(controller.signal))).then(
          (value) => finish(controller.signal.aborted ? { kind: 'cancelled', latencyMs: elapsed() } : { kind: 'done', value, latencyMs: elapsed() }),
          (error: unknown) => finish(controller.signal.aborted ? { kind: 'cancelled', latencyMs: elapsed() } : { kind: 'failed', error, latencyMs: elapsed() }),
        );
      }, options.debounceMs);
    });
  }

  /** Stops whatever is waiting or in flight. */
  cancel(): void {
    this.stopCurrent?.();
  }
}
