/**
 * When to try a failed request again. Only while nothing has been shown to the user (a retry after
 * text or a tool call was streamed would duplicate it), only for failures that a later attempt can fix,
 * with exponential backoff and jitter, honouring Retry-After within a cap, and sleeps that cancellation
 * interrupts at once.
 */
import { APIConnectionError, APIError } from 'openai';

export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** A server asking for a longer wait than this is better answered by telling the user. */
export const MAX_RETRY_AFTER_MS = 30_000;

export function isRetryable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (error instanceof APIError && typeof error.status === 'number') {
    return error.status === 408 || error.status === 429 || error.status === 500 || error.status === 502 || error.status === 503 || error.status === 504;
  }
  return false;
}

/** Delay before retry number `attempt` (1-based); undefined when the server asks for too long a wait. */
export function retryDelayMs(error: unknown, attempt: number, random: () => number = Math.random): number | undefined {
  const retryAfter = retryAfterMs(error);
  if (retryAfter !== undefined) return retryAfter <= MAX_RETRY_AFTER_MS ? retryAfter : undefined;
  const exponential = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  // Full jitter on the upper half: spreads retries of many clients without ever retrying instantly.
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

export function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof APIError) || !error.headers) return undefined;
  const raw = error.headers.get('retry-after-ms') ?? error.headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, error.headers.get('retry-after-ms') ? seconds : seconds * 1000);
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Resolves after ms, or rejects with an AbortError as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(): Error {
  const error = new Error('The request was cancelled.');
  error.name = 'AbortError';
  return error;
}
