/**
 * What the trim remembers per conversation (keyed by the session id): the last cut, to log whether it
 * moved and to keep it from moving back, and extra steps asked for by the overflow sensor. Small and
 * serializable, so the adapter persists it and a restart still holds the same cut.
 */

export interface ConversationTrimState {
  /** Messages dropped on the last request; the cut position, since history only grows at the end. */
  lastRemoved: number;
  /** Grid steps cut on the last request, the grid size they were cut on, and the input length then. */
  lastSteps: number;
  lastGrid: number;
  lastInputLength: number;
  /** Extra steps asked for by the overflow sensor, applied to the next request only. */
  extraSteps: number;
}

/** Overflow may ask for at most this many extra steps; calibration corrects the estimate meanwhile. */
export const MAX_EXTRA_STEPS = 3;

const EMPTY: ConversationTrimState = { lastRemoved: 0, lastSteps: 0, lastGrid: 0, lastInputLength: 0, extraSteps: 0 };

export interface CutRecord {
  removed: number;
  steps: number;
  grid: number;
  inputLength: number;
}

export class ConversationStates {
  private readonly states = new Map<string, ConversationTrimState>();

  constructor(private readonly capacity = 200) {}

  get(sessionId: string): ConversationTrimState {
    return this.states.get(sessionId) ?? EMPTY;
  }

  /**
   * The fewest steps the next cut may take. A cut never moves back while the history only grew: a
   * slightly lower calibration factor must not re-send old messages (one cold prefix) only to drop them
   * again a turn later (another). A shorter history (an edit, a summary) or another grid starts afresh.
   */
  minSteps(sessionId: string, inputLength: number, grid: number): number {
    const state = this.get(sessionId);
    return inputLength >= state.lastInputLength && grid === state.lastGrid ? state.lastSteps : 0;
  }

  /** Records the cut just made; returns whether it moved. Pending extra steps are used up by it. */
  recordCut(sessionId: string, cut: CutRecord): boolean {
    const state = this.get(sessionId);
    this.put(sessionId, { lastRemoved: cut.removed, lastSteps: cut.steps, lastGrid: cut.grid, lastInputLength: cut.inputLength, extraSteps: 0 });
    return cut.removed !== state.lastRemoved;
  }

  addExtraStep(sessionId: string): number {
    const state = this.get(sessionId);
    const extraSteps = Math.min(MAX_EXTRA_STEPS, state.extraSteps + 1);
    this.put(sessionId, { ...state, extraSteps });
    return extraSteps;
  }

  toJSON(): Record<string, ConversationTrimState> {
    return Object.fromEntries(this.states);
  }

  static fromJSON(value: unknown, capacity?: number): ConversationStates {
    const states = new ConversationStates(capacity);
    if (value && typeof value === 'object') {
      for (const [id, raw] of Object.entries(value as Record<string, Partial<ConversationTrimState>>)) {
        if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
        const state = { ...EMPTY, ...raw };
        const valid = Object.values(state).every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);
        // The engine loads through core/state/records.ts first; this keeps fromJSON safe on its own too.
        if (valid) states.put(id, { ...state, extraSteps: Math.min(MAX_EXTRA_STEPS, state.extraSteps) });
      }
    }
    return states;
  }

  private put(sessionId: string, state: ConversationTrimState): void {
    this.states.delete(sessionId);
    this.states.set(sessionId, state);
    if (this.states.size > this.capacity) this.states.delete(this.states.keys().next().value as string);
  }
}
