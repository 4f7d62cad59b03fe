/**
 * Context windows learned from the endpoint's own "maximum context length is N tokens" errors (the safety net).
 * The engine persists them (a per-model table, core/state/perModel.ts), so a restart does not forget them and fail the same way again.
 */
import { PerModel } from '../state/perModel';

const LIMIT_PATTERNS = [
  /maximum context length is\s*([\d,_]+)\s*tokens/i,
  /context(?: window| length)?(?: limit)? (?:of|is)\s*([\d,_]+)\s*tokens/i,
  /prompt is too long:\s*[\d,_]+\s*tokens\s*>\s*([\d,_]+)\s*maximum/i,
  /exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context (?:length|window)(?: of)?\s*([\d,_]+)/i,
];

/** No real model has a smaller window; a smaller number in an error or in saved state is not a window. */
export const MIN_LEARNED_LIMIT = 1_000;

/** The window an error message names, if it names one. */
export function parseContextLimit(message: string): number | undefined {
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(message);
    if (match) {
      const contextWindow = Number(match[1].replace(/[,_]/g, ''));
      if (Number.isFinite(contextWindow) && contextWindow >= MIN_LEARNED_LIMIT) return contextWindow;
    }
  }
  return undefined;
}

export class LearnedLimits {
  private readonly windows: PerModel<number>;

  /** From the persisted map, already validated on load (core/state/records.ts validContextWindow): no second check here. */
  constructor(saved: Readonly<Record<string, number>> = {}) {
    this.windows = new PerModel(saved);
  }

  get(model: string): number | undefined {
    return this.windows.get(model);
  }

  /** Returns true when this changes what we knew. */
  learn(model: string, contextWindow: number): boolean {
    if (this.windows.get(model) === contextWindow) return false;
    this.windows.set(model, contextWindow);
    return true;
  }

  toJSON(): Record<string, number> {
    return this.windows.toJSON();
  }

  static fromJSON(value: Readonly<Record<string, number>>): LearnedLimits {
    return new LearnedLimits(value);
  }
}
