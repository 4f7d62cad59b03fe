/**
 * The one knob for how hard the property tests search: OPENCODE_PROPERTY_RUNS_SCALE multiplies every run count
 * that goes through `runs()` and fast-check's default (100) for asserts that name none. Unset = 1 (`npm test`, CI:
 * the full counts); `npm run test:quick` sets 0.1 for the inner loop. A property keeps at least one run, so a
 * scaled-down tier still executes every assertion. Seeds stay fast-check's own (each failure prints its seed).
 */
import * as assert from 'assert';
import fc from 'fast-check';

export const RUNS_SCALE_VARIABLE = 'OPENCODE_PROPERTY_RUNS_SCALE';
const FAST_CHECK_DEFAULT_RUNS = 100;

/** The scale the variable names; a value that is not a positive finite number is refused, not guessed. */
export function runsScale(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[RUNS_SCALE_VARIABLE];
  if (raw === undefined || raw.trim() === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`${RUNS_SCALE_VARIABLE} must be a positive number (got "${raw}")`);
  return scale;
}

/**
 * `full` runs scaled by the knob, at least `atLeast` (never more than `full`): a property that checks after its
 * runs that its cases reached something (a cut, a kept entry) names the runs that takes.
 */
export function runs(full: number, atLeast = 1, scale = runsScale()): number {
  return Math.min(full, Math.max(atLeast, 1, Math.round(full * scale)));
}

/** Mocha `--require` hook body: asserts that name no `numRuns` follow the same scale. */
export function configurePropertyRuns(scale = runsScale()): void {
  fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: runs(FAST_CHECK_DEFAULT_RUNS, 1, scale) });
}

/**
 * A check that a property's runs reached the cases it is about (some cuts, megabytes sent), made only at the full
 * run counts: a scaled-down run (the quick tier) checks the property on fewer cases and may not reach them all.
 */
export function assertReached(reached: boolean, message: string, scale = runsScale()): void {
  if (scale >= 1) assert.ok(reached, message);
}
