/**
 * What the trim remembers per conversation (keyed by the session id): the last cut, to log whether it
 * moved, and extra steps asked for by the overflow sensor. Small and serializable, so the adapter can
 * persist it and a restart still reports `cut=held` for an unchanged cut.
 */

export interface ConversationTrimState {
  /** Messages dropped on the last request; the cut position, since history only grows at the end. */
  lastRemoved: number;
  extraSteps: number;
}

/** Overflow may ask for at most this many extra steps; calibration corrects the estimate meanwhile. */
export const MAX_EXTRA_STEPS = 3;

export class ConversationStates {
  private readonly states = new Map<string, ConversationTrimState>();

  constructor(private readonly capacity = 200) {}

  get(sessionId: string): ConversationTrimState {
    return this.states.get(sessionId) ?? { lastRemoved: 0, extraSteps: 0 };
  }

  recordCut(sessionId: string, removed: number): boolean {
    const state = this.get(sessionId);
    const moved = removed !== state.lastRemoved;
    this.put(sessionId, { ...state, lastRemoved: removed });
    return moved;
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
        if (typeof raw?.lastRemoved === 'number' && typeof raw.extraSteps === 'number') states.put(id, { lastRemoved: raw.lastRemoved, extraSteps: raw.extraSteps });
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
