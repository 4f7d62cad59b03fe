/**
 * How much a piece of work blocks the extension host's one thread, measured from inside it (the e2e tests run
 * in the extension host that runs the extension): `perf_hooks.monitorEventLoopDelay` for the delay
 * histogram, and a timer ticking every `tickMs` for the longest block (the gap between two ticks minus the
 * tick). Shared by the e2e tests of issue 29 (inline suggestions in large files, images as tool results).
 */
import { monitorEventLoopDelay, performance } from 'perf_hooks';

export interface HostLoad {
  /** The longest time the thread did not get to run a due timer (ms). */
  longestBlockMs: number;
  /** From the event-loop delay histogram (ms). */
  maxDelayMs: number;
  p99DelayMs: number;
  meanDelayMs: number;
  /** How long the measured work took (ms). */
  elapsedMs: number;
}

/** Runs `work` while measuring the host's event loop; returns its result and the load it caused. */
export async function measureHostLoad<T>(work: () => Promise<T>, tickMs = 5): Promise<{ result: T; load: HostLoad }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - tickMs);
    last = now;
  }, tickMs);
  histogram.enable();
  const started = performance.now();
  try {
    const result = await work();
    // One more tick, so a block at the very end of the work is seen.
    await new Promise((resolve) => setTimeout(resolve, tickMs * 2));
    const ms = (ns: number) => ns / 1e6;
    return {
      result,
      load: {
        longestBlockMs: Math.max(0, longest),
        maxDelayMs: ms(histogram.max),
        p99DelayMs: ms(histogram.percentile(99)),
        meanDelayMs: ms(histogram.mean),
        elapsedMs: performance.now() - started,
      },
    };
  } finally {
    histogram.disable();
    clearInterval(ticker);
  }
}

export const describeLoad = (l: HostLoad): string =>
  `longest block ${l.longestBlockMs.toFixed(1)} ms, delay max ${l.maxDelayMs.toFixed(1)} ms / p99 ${l.p99DelayMs.toFixed(1)} ms / mean ${l.meanDelayMs.toFixed(1)} ms over ${l.elapsedMs.toFixed(0)} ms`;
