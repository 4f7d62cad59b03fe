/**
 * Per-model calibration of the fast estimator against the prompt tokens the API reports: no local
 * tokenizer is exact for DeepSeek, Kimi, GLM or Qwen, so the reported count is the ground truth.
 * A smoothed ratio, clamped so one odd response cannot swing the budget.
 */

export const MIN_CALIBRATION = 0.5;
export const MAX_CALIBRATION = 2.5;
/** Below this many estimated tokens the fixed per-request overheads dominate the ratio. */
export const MIN_SAMPLE_TOKENS = 2_000;
const SMOOTHING = 0.3;
/** One sample moves an established factor by at most this share of it. */
export const MAX_STEP_RATIO = 0.05;
/** A sample this far from the factor (either way) is an outlier and ignored... */
export const OUTLIER_RATIO = 1.5;
/** ...unless this many in a row agree on the direction: then the endpoint really changed, and the factor follows (still bounded). */
const OUTLIERS_TO_FOLLOW = 3;

export interface CalibrationUpdate {
  observed: number;
  factor: number;
}

export class Calibrations {
  private readonly factors = new Map<string, number>();
  /** Consecutive outliers per model, signed by direction (not persisted: a restart forgets a streak). */
  private readonly outlierStreaks = new Map<string, number>();

  factor(model: string): number {
    return this.factors.get(model) ?? 1;
  }

  /**
   * Learns from one request: the estimate of what was actually sent (after truncation) and the prompt tokens
   * reported for it. Returns undefined when the sample is too small to learn from; an outlier returns the
   * factor unchanged. An established factor moves by a bounded step, so one odd sample never moves it far.
   */
  observe(model: string, estimatedRawTokens: number, reportedTokens: number): CalibrationUpdate | undefined {
    if (estimatedRawTokens < MIN_SAMPLE_TOKENS || reportedTokens <= 0) return undefined;
    const observed = reportedTokens / estimatedRawTokens;
    const previous = this.factors.get(model);
    const factor = previous === undefined ? clampFactor(observed) : this.nextFactor(model, previous, observed);
    this.factors.set(model, factor);
    return { observed, factor };
  }

  private nextFactor(model: string, previous: number, observed: number): number {
    const direction = observed > previous * OUTLIER_RATIO ? 1 : observed < previous / OUTLIER_RATIO ? -1 : 0;
    const streak = direction === 0 ? 0 : Math.sign(this.outlierStreaks.get(model) ?? 0) === direction ? (this.outlierStreaks.get(model) ?? 0) + direction : direction;
    this.outlierStreaks.set(model, streak);
    if (direction !== 0 && Math.abs(streak) < OUTLIERS_TO_FOLLOW) return previous;
    const blended = previous + SMOOTHING * (observed - previous);
    const bounded = Math.min(previous * (1 + MAX_STEP_RATIO), Math.max(previous * (1 - MAX_STEP_RATIO), blended));
    return clampFactor(bounded);
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.factors);
  }

  /** From the persisted map, already validated on load (core/state/records.ts validCalibration): no second check here. */
  static fromJSON(value: Readonly<Record<string, number>>): Calibrations {
    const calibrations = new Calibrations();
    for (const [model, factor] of Object.entries(value)) calibrations.factors.set(model, factor);
    return calibrations;
  }
}

function clampFactor(factor: number): number {
  return Math.min(MAX_CALIBRATION, Math.max(MIN_CALIBRATION, factor));
}

export function calibrationLine(model: string, reported: number, estimated: number, update: CalibrationUpdate): string {
  return `[calibrate] model=${model} reported=${reported} estimated=${estimated} ratio=${update.observed.toFixed(3)} factor=${update.factor.toFixed(3)}`;
}
