/**
 * One value per model, kept in memory and persisted in globalState as a plain `{ model: value }` object: the
 * calibration of each model (trim/calibration.ts) and the context windows learned from errors
 * (models/learnedLimits.ts) are both one. Bounded like every map here; what it is built from was validated on
 * load (persisted.ts with a validator from records.ts) and is taken as is.
 */
import { BoundedMap } from './boundedMap';

/** How many models a per-model table keeps, in memory and when loaded from globalState. */
export const MAX_MODELS = 1_000;

export class PerModel<V> {
  private readonly values = new BoundedMap<string, V>(MAX_MODELS);

  constructor(saved: Readonly<Record<string, V>> = {}) {
    for (const [model, value] of Object.entries(saved)) this.values.set(model, value);
  }

  get(model: string): V | undefined {
    return this.values.get(model);
  }

  set(model: string, value: V): void {
    this.values.set(model, value);
  }

  /** The persisted form, least recently used first (a load that must drop some keeps the newest). */
  toJSON(): Record<string, V> {
    return Object.fromEntries(this.values.entriesInOrder());
  }
}
