/**
 * What the trim keeps between requests, persisted so a restart plans the same cut: per model, the calibration of the
 * fast estimator (opencode.calibrations); per conversation, the trim state (opencode.trimStates).
 *
 * Calibration: no local tokenizer is exact for DeepSeek, Kimi, GLM or Qwen, so the prompt tokens the API reports are
 * the ground truth; a smoothed ratio, clamped so one odd response cannot swing the budget, and its spread.
 *
 * Trim state (keyed by the session id): the last cut, to log whether it moved and to keep it from moving back, the
 * frozen grid, how far the cache-stable truncation reached, and extra grid moves asked for by the overflow sensor.
 */
import { outsideText } from '../util/excerpt';
import { BoundedMap } from '../util/boundedMap';
import { type FrozenGrid } from './budget';
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
 * under-estimate raises it at once. The cut's safety margin follows it (marginRatio, budget.ts), so a model
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

/** Persisted as-is in opencode.trimStates: the field names are a contract (`lastSteps`, `extraSteps` count grid moves). */
export interface ConversationTrimState {
  /** Messages dropped on the last request. */
  lastRemoved: number;
  /** Grid moves cut on the last request, and the input length then. */
  lastSteps: number;
  lastInputLength: number;
  /** Input index of the first message kept after the head on the last request (the cut). */
  lastFirstKept: number;
  /** The frozen grid (raw estimator units; 0 = none yet), and the budget and factor it was laid with. */
  lastGrid: number;
  gridBudget: number;
  gridFactor: number;
  /** One past the newest message given the cache-stable truncation (0 = none): later requests truncate at least these. */
  truncatedThrough: number;
  /** One past the message cut to fit exactly on the last request (0 = none): resending it changes the prefix. */
  lastExactAt: number;
  /** Extra grid moves asked for by the overflow sensor, applied to the next request only. */
  extraSteps: number;
  /**
   * Input indices (ascending) of the tool results sent as a placeholder (pruneResults.ts): re-applied on every request
   * until the next move, so the bytes before the tail stay the same. Absent in a state saved before pruning: none.
   */
  prunedAt?: number[];
}

/** Overflow may ask for at most this many extra grid moves; calibration corrects the estimate meanwhile. */
export const MAX_EXTRA_GRID_MOVES = 3;

export const EMPTY_TRIM_STATE: ConversationTrimState = {
  lastRemoved: 0,
  lastSteps: 0,
  lastInputLength: 0,
  lastFirstKept: 0,
  lastGrid: 0,
  gridBudget: 0,
  gridFactor: 0,
  truncatedThrough: 0,
  lastExactAt: 0,
  extraSteps: 0,
  prunedAt: [],
};

export interface CutRecord {
  removed: number;
  gridMoves: number;
  firstKept: number;
  grid: FrozenGrid;
  truncatedThrough: number;
  lastExactAt: number;
  /** Something before the cut changed anyway (a message cut exactly on the last request is sent again). */
  prefixChanged: boolean;
  inputLength: number;
  /** The pruned results now sent (ascending input indices); a change is a move. */
  prunedAt?: number[];
}

/** Conversations whose trim state is kept (and persisted); the least recently cut are forgotten first. */
export const TRIM_STATE_CAPACITY = 200;

export class ConversationStates {
  private readonly states: BoundedMap<string, ConversationTrimState>;

  constructor(capacity = TRIM_STATE_CAPACITY) {
    this.states = new BoundedMap(capacity);
  }

  /** Reading does not refresh recency: only recording a cut does. */
  get(sessionId: string): ConversationTrimState {
    return this.states.peek(sessionId) ?? EMPTY_TRIM_STATE;
  }

  /** True while the history only grew since the last request: the last cut and truncations still bind. */
  grew(sessionId: string, inputLength: number): boolean {
    const state = this.get(sessionId);
    return state.lastInputLength > 0 && inputLength >= state.lastInputLength;
  }

  /** The conversation's frozen grid, if it has cut. */
  frozenGrid(sessionId: string): FrozenGrid | undefined {
    const state = this.get(sessionId);
    return state.lastGrid > 0 ? { rawGrid: state.lastGrid, budget: state.gridBudget, factor: state.gridFactor } : undefined;
  }

  /**
   * Records the cut just made; returns whether the sent prefix moved (a different cut, a different set
   * of dropped messages, or a message truncated that was sent whole before). Pending extra grid moves are used up.
   */
  recordCut(sessionId: string, cut: CutRecord): boolean {
    const state = this.get(sessionId);
    const hasCut = cut.removed > 0 || cut.truncatedThrough > 0;
    const grid = hasCut ? cut.grid : { rawGrid: 0, budget: 0, factor: 0 };
    this.put(sessionId, {
      lastRemoved: cut.removed,
      lastSteps: cut.gridMoves,
      lastInputLength: cut.inputLength,
      lastFirstKept: cut.firstKept,
      lastGrid: grid.rawGrid,
      gridBudget: grid.budget,
      gridFactor: grid.factor,
      truncatedThrough: cut.truncatedThrough,
      lastExactAt: cut.lastExactAt,
      extraSteps: 0,
      prunedAt: cut.prunedAt ?? [],
    });
    return cut.prefixChanged || !samePrunes(cut.prunedAt ?? [], state.prunedAt ?? []) || cut.removed !== state.lastRemoved || (cut.removed > 0 && cut.firstKept !== state.lastFirstKept) || cut.truncatedThrough !== state.truncatedThrough;
  }

  addExtraGridMove(sessionId: string): number {
    const state = this.get(sessionId);
    const extraSteps = Math.min(MAX_EXTRA_GRID_MOVES, state.extraSteps + 1);
    this.put(sessionId, { ...state, extraSteps });
    return extraSteps;
  }

  toJSON(): Record<string, ConversationTrimState> {
    return Object.fromEntries(this.states.entriesInOrder());
  }

  /** From records validated by core/request/savedRecords.ts (validTrimState), the one place their rules live. */
  static fromJSON(value: Readonly<Record<string, ConversationTrimState>>, capacity?: number): ConversationStates {
    const states = new ConversationStates(capacity);
    for (const [id, state] of Object.entries(value)) states.put(id, state);
    return states;
  }

  private put(sessionId: string, state: ConversationTrimState): void {
    this.states.set(sessionId, state);
  }
}

function samePrunes(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((i, k) => i === b[k]);
}
