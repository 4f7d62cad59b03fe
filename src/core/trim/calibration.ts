/**
 * Per-model calibration of the fast estimator against the prompt tokens the API reports: no local
 * tokenizer is exact for DeepSeek, Kimi, GLM or Qwen, so the reported count is the ground truth.
 * A smoothed ratio, clamped so one odd response cannot swing the budget, and its spread (below).
 */
import { outsideText } from '../util/excerpt';
import { PerModel } from '../util/boundedMap';

/** The calibration's tuning, one place (docs/history-trim.md "Calibration" and "The margin follows the calibration spread"). */
export const CALIBRATION = {
  /** The factor stays within [minFactor, maxFactor]. */
  minFactor: 0.5,
  maxFactor: 2.5,
  /** Below this many estimated tokens the fixed per-request overheads dominate the ratio: no sample. */
  minSampleTokens: 2_000,
  /** Share of the gap to a sample that the factor moves... */
  smoothing: 0.3,
  /** ...but one sample moves an established factor by at most this share of it. */
  maxStepRatio: 0.05,
  /** A sample this far from the factor (either way) is an outlier and ignored... */
  outlierRatio: 1.5,
  /** ...unless this many in a row agree on the direction: then the endpoint really changed, and the factor follows (still bounded). */
  outliersToFollow: 3,
  /** Each sample lowers the spread by this share (per sample, not per time: half-life ≈ 230 samples). */
  spreadDecay: 0.003,
} as const;

/** The largest spread a sample can set: one further away is an outlier, which the spread ignores. */
export const MAX_SPREAD = CALIBRATION.outlierRatio - 1;

/**
 * What is kept per model, and persisted, so a restart plans the same cut. The spread: how far the reported
 * count has recently come out ABOVE what the factor in use predicted (observed ÷ factor − 1, positive side
 * only: an over-estimate never overflows). A decaying peak: each sample lowers it by spreadDecay, a larger
 * under-estimate raises it at once. The cut's safety margin follows it (cutPolicy.marginRatio), so a model
 * whose ratio jitters by ±1% holds 1.5% below the budget. It decays per sample, not with time: after a
 * restart, however long after, the margin is the one the last request had.
 */
export interface CalibrationRecord {
  factor: number;
  /** 0 … MAX_SPREAD; 0 before the second sample, and for a record saved before the spread was persisted. */
  spread: number;
}

/** One sample's outcome: the ratio it showed and the record after it. */
export interface CalibrationUpdate extends CalibrationRecord {
  observed: number;
}

export class Calibrations {
  private readonly records: PerModel<CalibrationRecord>;
  /** Consecutive outliers per model, signed by direction (not persisted: a restart forgets a streak). */
  private readonly outlierStreaks = new PerModel<number>();
  /** A first sample far from the default factor, waiting for a second that agrees (not persisted). */
  private readonly firstOutliers = new PerModel<number>();

  /** From the persisted map, already validated on load (core/request/savedRecords.ts validCalibration): no second check here. */
  constructor(saved: Readonly<Record<string, CalibrationRecord>> = {}) {
    this.records = new PerModel(saved);
  }

  factor(model: string): number {
    return this.records.get(model)?.factor ?? 1;
  }

  /** The recent peak of (reported ÷ predicted − 1) for this model; 0 before two samples. */
  spread(model: string): number {
    return this.records.get(model)?.spread ?? 0;
  }

  /**
   * Learns from one request: the estimate of what was actually sent (after truncation) and the prompt tokens
   * reported for it. Returns undefined when the sample is too small to learn from; an outlier returns the
   * factor unchanged. An established factor moves by a bounded step, so one odd sample never moves it far.
   */
  observe(model: string, estimatedRawTokens: number, reportedTokens: number): CalibrationUpdate | undefined {
    const observed = reportedTokens / estimatedRawTokens;
    if (!(estimatedRawTokens >= CALIBRATION.minSampleTokens) || !(reportedTokens > 0) || !Number.isFinite(observed)) return undefined;
    const previous = this.records.get(model);
    const record = previous ? this.next(model, previous, observed) : this.first(model, observed);
    if (!record) return { observed, factor: this.factor(model), spread: 0 };
    this.records.set(model, record);
    return { observed, ...record };
  }

  /**
   * A model's first sample sets its factor, unless it is an outlier against the default (1): then one odd answer
   * (a gateway's broken usage, a cached prefix counted twice) would move the whole budget at once and persist. Such
   * a sample waits for a second that agrees with it (within the outlier ratio); a model whose ratio really is far
   * from 1 is calibrated on its second answer.
   */
  private first(model: string, observed: number): CalibrationRecord | undefined {
    const pending = this.firstOutliers.get(model);
    const agrees = pending !== undefined && observed <= pending * CALIBRATION.outlierRatio && observed >= pending / CALIBRATION.outlierRatio;
    if (isOutlier(observed, 1) && !agrees) {
      this.firstOutliers.set(model, observed);
      return undefined;
    }
    return { factor: clampFactor(observed), spread: 0 };
  }

  private next(model: string, previous: CalibrationRecord, observed: number): CalibrationRecord {
    const direction = isOutlier(observed, previous.factor) ? (observed > previous.factor ? 1 : -1) : 0;
    const streak = direction === 0 ? 0 : Math.sign(this.outlierStreaks.get(model) ?? 0) === direction ? (this.outlierStreaks.get(model) ?? 0) + direction : direction;
    this.outlierStreaks.set(model, streak);
    // An outlier says nothing about the usual spread; the factor follows it only after a streak.
    if (direction !== 0) return Math.abs(streak) < CALIBRATION.outliersToFollow ? previous : { factor: nextFactor(previous.factor, observed), spread: previous.spread };
    return { factor: nextFactor(previous.factor, observed), spread: nextSpread(previous.spread, observed / previous.factor - 1) };
  }

  toJSON(): Record<string, CalibrationRecord> {
    return this.records.toJSON();
  }

  static fromJSON(value: Readonly<Record<string, CalibrationRecord>>): Calibrations {
    return new Calibrations(value);
  }
}

function isOutlier(observed: number, factor: number): boolean {
  return observed > factor * CALIBRATION.outlierRatio || observed < factor / CALIBRATION.outlierRatio;
}

function nextFactor(previous: number, observed: number): number {
  const blended = previous + CALIBRATION.smoothing * (observed - previous);
  const bounded = Math.min(previous * (1 + CALIBRATION.maxStepRatio), Math.max(previous * (1 - CALIBRATION.maxStepRatio), blended));
  return clampFactor(bounded);
}

function nextSpread(spread: number, underEstimate: number): number {
  return Math.min(MAX_SPREAD, Math.max(underEstimate, spread * (1 - CALIBRATION.spreadDecay), 0));
}

function clampFactor(factor: number): number {
  return Math.min(CALIBRATION.maxFactor, Math.max(CALIBRATION.minFactor, factor));
}

export function calibrationLine(model: string, reported: number, estimated: number, update: CalibrationUpdate): string {
  return `[calibrate] model=${outsideText(model)} reported=${reported} estimated=${estimated} ratio=${update.observed.toFixed(3)} factor=${update.factor.toFixed(3)}`;
}
