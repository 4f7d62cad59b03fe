/**
 * The pauses between turns of the pause regime: log-uniform between 5 seconds and an hour (as many pauses
 * between 5 s and 1 min as between 5 min and 1 h), drawn from a seeded generator so every run is the same. Under
 * it 37.8% of pauses outlast a 5-minute cache; none outlasts an hour.
 */
import { SeededRandom } from '../../test/fixtures/textSamples';

export const PAUSE_MIN_MS = 5_000;
export const PAUSE_MAX_MS = 60 * 60_000;

/** `count` pauses, ms. */
export function drawPauses(count: number, seed: number): number[] {
  const rng = new SeededRandom(seed);
  const span = Math.log(PAUSE_MAX_MS / PAUSE_MIN_MS);
  return Array.from({ length: count }, () => PAUSE_MIN_MS * Math.exp(rng.next() * span));
}

/** The share of the distribution's pauses longer than `ms` (exact, not sampled). */
export function shareLongerThan(ms: number): number {
  if (ms <= PAUSE_MIN_MS) return 1;
  if (ms >= PAUSE_MAX_MS) return 0;
  return Math.log(PAUSE_MAX_MS / ms) / Math.log(PAUSE_MAX_MS / PAUSE_MIN_MS);
}
