/**
 * The log of requests the fake server received, and when each one's response closed. `closedEarly` is
 * what proves that cancelling on the client really aborted the HTTP request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RecordedRequest } from './types';

export class RequestRecorder {
  /** Cleared in place on reset: callers may hold on to this array. */
  readonly requests: RecordedRequest[] = [];
  private readonly closedSignals: Promise<void>[] = [];
  private readonly closedByServer = new Set<RecordedRequest>();
  private readonly waitingForArrival = new Map<number, Array<() => void>>();

  /** Records the request and returns its index. */
  record(req: IncomingMessage, res: ServerResponse, path: string, body: unknown): number {
    const entry: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body,
      receivedAt: Date.now(),
      closedEarly: false,
    };
    const index = this.requests.push(entry) - 1;
    this.closedSignals[index] = new Promise((resolve) => {
      res.once('close', () => {
        // A response closed before it was fully written, and not by one of our own faults: the client left.
        if (!res.writableFinished && !this.closedByServer.has(entry)) entry.closedEarly = true;
        resolve();
      });
    });
    this.wakeWaiters(index);
    return index;
  }

  /** Call before destroying a socket on purpose, so that the close is not blamed on the client. */
  markClosedByServer(index: number): void {
    const entry = this.requests[index];
    if (entry) this.closedByServer.add(entry);
  }

  whenClosed(index: number): Promise<void> {
    if (index < this.closedSignals.length) return this.closedSignals[index];
    // Not arrived yet: wait for it to be recorded, then for it to close.
    return new Promise<void>((resolve) => {
      const waiters = this.waitingForArrival.get(index) ?? [];
      waiters.push(resolve);
      this.waitingForArrival.set(index, waiters);
    }).then(() => this.closedSignals[index]);
  }

  reset(): void {
    this.requests.length = 0;
    this.closedSignals.length = 0;
    this.closedByServer.clear();
  }

  private wakeWaiters(index: number): void {
    const waiters = this.waitingForArrival.get(index);
    if (!waiters) return;
    this.waitingForArrival.delete(index);
    for (const wake of waiters) wake();
  }
}
