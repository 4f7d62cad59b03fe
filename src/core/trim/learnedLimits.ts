/**
 * Context limits learned from the endpoint's own "maximum context length is N tokens" errors (seed 001).
 * They are persisted by the adapter, so a restart does not forget them and fail the same way again.
 */

const LIMIT_PATTERNS = [
  /maximum context length is\s*([\d,_]+)\s*tokens/i,
  /context(?: window| length)?(?: limit)? (?:of|is)\s*([\d,_]+)\s*tokens/i,
  /prompt is too long:\s*[\d,_]+\s*tokens\s*>\s*([\d,_]+)\s*maximum/i,
  /exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context (?:length|window)(?: of)?\s*([\d,_]+)/i,
];

/** No real model has a smaller window; a smaller number in an error or in saved state is not a limit. */
export const MIN_LEARNED_LIMIT = 1_000;

/** The limit an error message names, if it names one. */
export function parseContextLimit(message: string): number | undefined {
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(message);
    if (match) {
      const limit = Number(match[1].replace(/[,_]/g, ''));
      if (Number.isFinite(limit) && limit >= MIN_LEARNED_LIMIT) return limit;
    }
  }
  return undefined;
}

export class LearnedLimits {
  private readonly limits = new Map<string, number>();

  get(model: string): number | undefined {
    return this.limits.get(model);
  }

  /** Returns true when this changes what we knew. */
  learn(model: string, limit: number): boolean {
    if (this.limits.get(model) === limit) return false;
    this.limits.set(model, limit);
    return true;
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.limits);
  }

  static fromJSON(value: unknown): LearnedLimits {
    const learned = new LearnedLimits();
    if (value && typeof value === 'object') {
      for (const [model, limit] of Object.entries(value as Record<string, unknown>)) {
        // A limit below any real model's window (e.g. 1) would drop all history: refused, like parseContextLimit.
        if (typeof limit === 'number' && Number.isInteger(limit) && limit >= MIN_LEARNED_LIMIT && limit <= 100_000_000) learned.limits.set(model, limit);
      }
    }
    return learned;
  }
}
