/**
 * The one knob for how hard the property tests search: OPENCODE_PROPERTY_RUNS_SCALE multiplies every run count
 * that goes through `runs()` and fast-check's default (100) for asserts that name none. Unset = 1 (`npm test`, CI:
 * the full counts); `npm run test:quick` sets 0.1 for the inner loop. A property keeps at least one run, so a
 * scaled-down tier still executes every assertion. Seeds stay fast-check's own (each failure prints its seed).
 */
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

/** `full` runs scaled by the knob, at least 1. */
export function runs(full: number, scale = runsScale()): number {
  return Math.max(1, Math.round(full * scale));
}

/** Mocha `--require` hook body: asserts that name no `numRuns` follow the same scale. */
export function configurePropertyRuns(scale = runsScale()): void {
  fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: runs(FAST_CHECK_DEFAULT_RUNS, scale) });
}
