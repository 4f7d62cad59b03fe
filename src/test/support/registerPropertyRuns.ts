/** Mocha `--require` hook: fast-check's default run count follows OPENCODE_PROPERTY_RUNS_SCALE (propertyRuns.ts). */
import { configurePropertyRuns } from './propertyRuns';

configurePropertyRuns();
