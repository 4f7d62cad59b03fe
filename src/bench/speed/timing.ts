/** Wall-clock timing helpers for the speed figures. */
import { performance } from 'perf_hooks';
import { median, percentile } from '../metrics/stats';

export interface TimingSummary {
  samples: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export function timeMs(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

export function summarizeTimings(samples: readonly number[]): TimingSummary {
  return { samples: samples.length, medianMs: median(samples), p95Ms: percentile(samples, 95), maxMs: Math.max(0, ...samples) };
}
