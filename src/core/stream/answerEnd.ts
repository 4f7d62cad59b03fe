/**
 * When an answer is over, whatever the wire format (docs/issues/009). Route-neutral: the transport tells it what
 * each payload brought (progress, a finish reason, usage, the end marker) and it says how long to wait for the
 * next one. Only progress restarts the idle timeout: a keep-alive (an Anthropic `ping`, an empty chat chunk) never
 * does, so a stalled stream times out. After a finish reason only usage, the end marker and OpenCode's cost frame
 * can follow, so the wait is short and fixed: nothing that arrives later extends it (a server pinging forever
 * after a complete answer cannot keep it "in progress"); silence or a broken connection then is the normal end.
 */

/** After a finish reason: the wait for usage and the end marker, instead of the idle timeout. */
export const AFTER_FINISH_MS = 2_000;
/** After a finish reason and usage: only the end marker (or a trailing usage frame) can follow. */
export const AFTER_USAGE_MS = 300;
/** After the end marker: OpenCode's cost frame may still follow, unless the connection closes first. */
export const AFTER_END_MS = 250;

export interface Arrived {
  progress?: boolean;
  finishReason?: boolean;
  usage?: boolean;
  end?: boolean;
}

export class AnswerEnd {
  /** A finish reason or the end marker arrived: the answer itself is complete. */
  finished = false;
  private usage = false;
  private deadline = Infinity;

  /** `expectUsage`: usage was asked for (without it, the finish reason is the last thing worth waiting for). */
  constructor(
    private readonly idleTimeoutMs: number,
    private readonly expectUsage: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** After a payload: how long to wait for the next one, or undefined to keep the timer already running. */
  note(arrived: Arrived): number | undefined {
    const now = this.now();
    const wasFinished = this.finished;
    const newUsage = !!arrived.usage && !this.usage;
    if (arrived.usage) this.usage = true;
    if (arrived.finishReason || arrived.end) this.finished = true;
    if (!this.finished) return arrived.progress ? this.idleTimeoutMs : undefined;
    const wait = arrived.end ? AFTER_END_MS : this.usage || !this.expectUsage ? AFTER_USAGE_MS : AFTER_FINISH_MS;
    if (!wasFinished || newUsage || arrived.end) this.deadline = Math.min(this.deadline, now + Math.min(wait, this.idleTimeoutMs));
    return wasFinished && !newUsage && !arrived.end ? undefined : Math.max(0, this.deadline - now);
  }
}
