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

  /** From the persisted map, already validated on load (core/state/records.ts validContextWindow): no second check here. */
  static fromJSON(value: Readonly<Record<string, number>>): LearnedLimits {
    const learned = new LearnedLimits();
    for (const [model, limit] of Object.entries(value)) learned.limits.set(model, limit);
    return learned;
  }
}
