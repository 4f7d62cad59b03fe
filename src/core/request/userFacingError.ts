/**
 * Errors as the user should read them: what happened and what to do, in one or two sentences. The
 * technical detail goes to the log only. Messages never include the API key.
 */
import { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from 'openai';

export type ErrorKind = 'key' | 'quota' | 'rate' | 'model' | 'network' | 'server' | 'request' | 'timeout' | 'cancelled' | 'context';

export class UserFacingError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly detail: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}

export const SET_KEY_HINT = 'Run the command "OpenCode: Set API Key" (or set the OPENCODE_API_KEY environment variable).';

export function missingKeyError(baseUrl: string): UserFacingError {
  return new UserFacingError('key', `No OpenCode API key is set for ${baseUrl}. ${SET_KEY_HINT}`, 'no key in SecretStorage or OPENCODE_API_KEY');
}

export class StreamIdleTimeoutError extends Error {
  constructor(readonly seconds: number) {
    super(`no data from the model for ${seconds} s`);
    this.name = 'StreamIdleTimeoutError';
  }
}

export function toUserFacingError(error: unknown, context: { baseUrl: string; model: string }): UserFacingError {
  if (error instanceof UserFacingError) return error;
  const detail = errorDetail(error);
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return new UserFacingError('cancelled', 'The request was cancelled.', detail);
  }
  if (error instanceof StreamIdleTimeoutError) {
    return new UserFacingError('timeout', `The model sent nothing for ${error.seconds} seconds, so the request was stopped. Try again, or raise opencode.streamIdleTimeoutSeconds for slow models.`, detail);
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new UserFacingError('timeout', `${context.baseUrl} did not answer in time. Check your network and try again.`, detail);
  }
  if (error instanceof APIConnectionError) {
    return new UserFacingError('network', `Could not reach ${context.baseUrl}. Check your network connection or the opencode.baseUrl setting, then try again.`, detail);
  }
  if (error instanceof APIError && typeof error.status === 'number') return fromStatus(error, error.status, context, detail);
  return new UserFacingError('request', `The request to ${context.model} failed: ${error instanceof Error ? error.message : String(error)}`, detail);
}

function fromStatus(error: APIError, status: number, context: { baseUrl: string; model: string }, detail: string): UserFacingError {
  const text = detail.toLowerCase();
  if (status === 401 || status === 403) {
    return new UserFacingError('key', `${context.baseUrl} rejected the API key (HTTP ${status}). ${SET_KEY_HINT}`, detail, status);
  }
  if (status === 402 || (status === 429 && /quota|credit|balance|billing|insufficient/.test(text))) {
    return new UserFacingError('quota', `Your OpenCode account has no quota or credit left for ${context.model} (HTTP ${status}). Top up or check your plan, then try again.`, detail, status);
  }
  if (status === 429) {
    return new UserFacingError('rate', `${context.model} is rate-limited right now (HTTP 429). Wait a moment and try again.`, detail, status);
  }
  if (status === 404 || /model_not_found|does not exist|unknown model/.test(text)) {
    return new UserFacingError('model', `The endpoint does not serve the model "${context.model}". Run "OpenCode: Refresh Models" and pick another model.`, detail, status);
  }
  if (isContextLengthMessage(text)) {
    return new UserFacingError('context', `The conversation is too long for ${context.model} even after trimming. Start a new chat, or lower opencode.maxInputTokens.`, detail, status);
  }
  if (status >= 500) {
    return new UserFacingError('server', `The model service had an error (HTTP ${status}). Try again in a moment.`, detail, status);
  }
  return new UserFacingError('request', `${context.model} refused the request (HTTP ${status}): ${firstSentence(error.message)}`, detail, status);
}

export function isContextLengthMessage(text: string): boolean {
  return /context[ _-]?length|context window|maximum context|too many tokens|prompt is too long|reduce the length/i.test(text);
}

function errorDetail(error: unknown): string {
  if (error instanceof APIError) return `${error.status ?? ''} ${error.message}`.trim();
  if (error instanceof Error) return `${error.name}: ${error.message}${error.cause ? ` (cause: ${String((error.cause as Error).message ?? error.cause)})` : ''}`;
  return String(error);
}

function firstSentence(message: string): string {
  const clean = message.replace(/^\d{3}\s+/, '');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
