/**
 * When to try a failed request again. Only while nothing has been shown to the user (a retry after
 * text or a tool call was streamed would duplicate it), only for failures that a later attempt can fix,
 * with exponential backoff and jitter, honouring Retry-After within a cap, and sleeps that cancellation
 * interrupts at once.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { openCodeErrorOf } from './openCodeError';
import { EmptyAnswerError, StreamInterruptedError } from './streamErrors';
import { retryAfterMsOf } from '../util/retryAfter';
import { refusedRedirectOf } from './chatTransport';
import { ToolCallArgumentsError } from '../answer/toolCalls';

export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** A server asking for a longer wait than this is better answered by telling the user. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** An empty answer or a tool call with broken JSON is tried again once; a model that repeats it will again. */
export const MAX_BAD_ANSWER_RETRIES = 1;

/**
 * transient: the network or the service failed, a later attempt can succeed. bad-answer: the request
 * worked but the model's output is unusable (empty, or a tool call that is not JSON). final: retrying
 * cannot help (key, quota, model, bad request, a stall the user already waited for).
 */
export type FailureClass = 'transient' | 'bad-answer' | 'final';

export function failureClass(error: unknown): FailureClass {
  if (error instanceof StreamInterruptedError) return 'transient';
  if (error instanceof EmptyAnswerError) return error.final ? 'final' : 'bad-answer';
  if (error instanceof ToolCallArgumentsError) return 'bad-answer';
  if (error instanceof APIConnectionTimeoutError) return 'final';
  // The endpoint will redirect again: a refused redirect is not a network blip.
  if (refusedRedirectOf(error)) return 'final';
  if (error instanceof APIConnectionError) return 'transient';
  if (error instanceof APIError && typeof error.status === 'number') {
    // OpenCode's own refusals (usage limit, credits, free tier, wrong route, key) do not pass with waiting.
    if (isQuotaError(error) || openCodeErrorOf(error)) return 'final';
    return [408, 429, 500, 502, 503, 504].includes(error.status) ? 'transient' : 'final';
  }
  return 'final';
}

/** No credit left: a 402, or a 429 whose text talks about quota or billing (a plain rate limit does not). */
export function isQuotaError(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (error.status === 402) return true;
  return error.status === 429 && /quota|credit|balance|billing|insufficient/i.test(`${error.message} ${JSON.stringify(error.error ?? '')}`);
}

export interface RetryState {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  maxRetries: number;
  /** Bad-answer retries already spent on this request. */
  badAnswerRetries: number;
}

/** How long to wait before the next attempt, or undefined to give up. Call only when nothing was shown. */
export function nextRetryDelayMs(error: unknown, state: RetryState, random: () => number = Math.random): number | undefined {
  if (state.attempt > state.maxRetries) return undefined;
  const kind = failureClass(error);
  if (kind === 'final') return undefined;
  if (kind === 'bad-answer' && state.badAnswerRetries >= MAX_BAD_ANSWER_RETRIES) return undefined;
  return retryDelayMs(error, state.attempt, random);
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
  return retryAfterMsOf(error.headers.get('retry-after'), error.headers.get('retry-after-ms'));
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
