/**
 * When the quota may be fetched: at most once a minute (the status bar asks after every request), and after
 * a failure only after a wait that doubles with each failure in a row, up to 30 minutes.
 */
export const MIN_INTERVAL_MS = 60_000;
export const MAX_BACKOFF_MS = 30 * 60_000;

export class QuotaPacer {
  private lastAttempt = -Infinity;
  private failures = 0;

  constructor(private readonly minIntervalMs = MIN_INTERVAL_MS, private readonly maxBackoffMs = MAX_BACKOFF_MS) {}

  /** The earliest time the next fetch may start. */
  nextAllowed(): number {
    const wait = this.failures === 0 ? this.minIntervalMs : Math.min(this.maxBackoffMs, this.minIntervalMs * 2 ** this.failures);
    return this.lastAttempt + wait;
  }

  /** Claims a fetch slot when one is free. */
  tryStart(now: number): boolean {
    if (now < this.nextAllowed()) return false;
    this.lastAttempt = now;
    return true;
  }

  succeeded(): void {
    this.failures = 0;
  }

  failed(): void {
    this.failures++;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }
}
