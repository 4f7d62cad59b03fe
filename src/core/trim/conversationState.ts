/**
 * What the trim remembers per conversation (keyed by the session id): the last cut, to log whether it
 * moved and to keep it from moving back, the frozen grid, how far the cache-stable truncation reached,
 * and extra grid moves asked for by the overflow sensor. Small and serializable, so the adapter persists it
 * and a restart still holds the same cut.
 */
import { BoundedMap } from '../util/boundedMap';
import type { FrozenGrid } from './cutPolicy';

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
