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

export interface CalibrationUpdate {
  observed: number;
  factor: number;
}

export class Calibrations {
  private readonly factors = new Map<string, number>();

  factor(model: string): number {
    return this.factors.get(model) ?? 1;
  }

  /** Returns undefined when the sample is too small to learn from. */
  observe(model: string, estimatedRawTokens: number, reportedTokens: number): CalibrationUpdate | undefined {
    if (estimatedRawTokens < MIN_SAMPLE_TOKENS || reportedTokens <= 0) return undefined;
    const observed = reportedTokens / estimatedRawTokens;
    const previous = this.factors.get(model);
    const blended = previous === undefined ? observed : previous + SMOOTHING * (observed - previous);
    const factor = Math.min(MAX_CALIBRATION, Math.max(MIN_CALIBRATION, blended));
    this.factors.set(model, factor);
    return { observed, factor };
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

export function calibrationLine(model: string, reported: number, estimated: number, update: CalibrationUpdate): string {
  return `[calibrate] model=${model} reported=${reported} estimated=${estimated} ratio=${update.observed.toFixed(3)} factor=${update.factor.toFixed(3)}`;
}
