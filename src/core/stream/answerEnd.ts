/**
 * When an answer is over, whatever the wire format (docs/issues/009). Route-neutral: a reader tells it what
 * arrived (a finish reason, usage, the end marker) and asks how long to wait for the next payload. `[DONE]` (or a
 * route's own end event) ends the read at once; after a finish reason only usage and the end marker can follow,
 * so the wait is short, and silence or a broken connection then is the normal end of a complete answer.
 */

/** After a finish reason: the wait for usage and the end marker, instead of the idle timeout. */
export const AFTER_FINISH_MS = 2_000;
/** After a finish reason and usage: only the end marker (or a trailing usage frame) can follow. */
export const AFTER_USAGE_MS = 300;

export class AnswerEnd {
  /** A finish reason arrived: the answer itself is complete. */
  finished = false;
  private usage = false;

  /** `expectUsage`: usage was asked for (without it, the finish reason is the last thing worth waiting for). */
  constructor(
    private readonly idleTimeoutMs: number,
    private readonly expectUsage: boolean,
  ) {}

  note(arrived: { finishReason?: boolean; usage?: boolean }): void {
    if (arrived.finishReason) this.finished = true;
    if (arrived.usage) this.usage = true;
  }

  /** How long to wait for the next payload. */
  nextWaitMs(): number {
    if (!this.finished) return this.idleTimeoutMs;
    return Math.min(this.usage || !this.expectUsage ? AFTER_USAGE_MS : AFTER_FINISH_MS, this.idleTimeoutMs);
  }
}
