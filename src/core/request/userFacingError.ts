/**
 * Errors as the user should read them: what happened and what to do, in one or two sentences. The
 * technical detail goes to the log only. Messages never include the API key: they are built from the
 * error's status, body text and our own wording, and both the sentence and the detail pass through
 * redact() (util/redact.ts), because a transport message can quote a header or a URL. The server's words
 * are quoted as a short excerpt (util/excerpt.ts): a gateway's error body can be a whole HTML page.
 */
import { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from 'openai';
import type { OpenCodeErrorKind } from '../routes/select/openCodeErrors';
import { openCodeErrorOf } from './openCodeError';
import { isQuotaError, MAX_RETRY_AFTER_MS, retryAfterMs } from './retryPolicy';
import { CutAnswerError, EmptyAnswerError, formatDuration, StreamIdleTimeoutError, StreamInterruptedError } from './streamErrors';
import { ERROR_DETAIL_MAX, excerptOf, outsideText } from '../util/excerpt';
import { isContextLengthWording } from '../models/contextRefusal';
import { redact, redactUrl } from '../util/redact';
import { overTokens, type FixedPart } from '../trim/planTrim';
import { refusedRedirectOf } from './chatTransport';
import { envKeyAllowed } from '../config/endpoints';
import { ToolCallArgumentsError } from '../answer/toolCalls';

export type ErrorKind = 'key' | 'quota' | 'rate' | 'model' | 'network' | 'server' | 'request' | 'timeout' | 'cancelled' | 'context' | 'empty' | 'output' | 'cut';

export class UserFacingError extends Error {
  /** Its message is already in the log (e.g. the `[history-trim] Not sent` line): no `[error]` line repeats it. */
  logged = false;

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

export interface ErrorContext {
  baseUrl: string;
  model: string;
  /** The key in use, so that it is masked wherever a message quotes it. */
  apiKey?: string;
}

export const SET_KEY_HINT = 'Run the command "OpenCode: Set API Key" (or set the OPENCODE_API_KEY environment variable).';

export function missingKeyError(baseUrl: string): UserFacingError {
  // The environment key goes only over https to opencode.ai (envKeyAllowed): elsewhere it is no way to set one.
  const hint = envKeyAllowed(baseUrl) ? SET_KEY_HINT : 'Run the command "OpenCode: Set API Key" (OPENCODE_API_KEY is sent only to https://opencode.ai).';
  return new UserFacingError('key', `No OpenCode API key is set for ${redactUrl(baseUrl)}. ${hint}`, 'no key in SecretStorage or OPENCODE_API_KEY');
}

export function cancelledError(error: unknown): UserFacingError {
  return new UserFacingError('cancelled', 'The request was cancelled.', errorDetail(error));
}

export function toUserFacingError(error: unknown, context: ErrorContext): UserFacingError {
  // The model id comes from the endpoint: escaped and cut in every sentence (outsideText, util/excerpt.ts).
  const plain = error instanceof UserFacingError ? error : describe(error, { ...context, baseUrl: redactUrl(context.baseUrl), model: outsideText(context.model) });
  const secrets = [context.apiKey];
  // The detail goes to the [error] line: a short excerpt, never a whole HTML page or body.
  return new UserFacingError(plain.kind, redact(plain.message, secrets), excerptOf(plain.detail, ERROR_DETAIL_MAX, secrets), plain.status);
}

function describe(error: unknown, context: ErrorContext): UserFacingError {
  const detail = errorDetail(error);
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) return cancelledError(error);
  const answerError = fromAnswerError(error, context, detail);
  if (answerError) return answerError;
  if (error instanceof APIConnectionTimeoutError) {
    return new UserFacingError('timeout', `${context.baseUrl} did not answer in time. Check your network and try again.`, detail);
  }
  const redirect = refusedRedirectOf(error);
  if (redirect) return new UserFacingError('request', `${redirect.message} Check the endpoint's URL in opencode.baseUrl or opencode.endpoints.`, detail);
  if (error instanceof APIConnectionError) {
    return new UserFacingError('network', `Could not reach ${context.baseUrl}. Check your network connection or the opencode.baseUrl setting, then try again.`, detail);
  }
  if (error instanceof APIError && typeof error.status === 'number') return fromStatus(error, error.status, context, detail);
  const text = firstSentence(error instanceof Error ? error.message : String(error), context.apiKey);
  return new UserFacingError('request', `The request to ${context.model} failed: ${text}`, detail);
}

/** Failures of the answer itself: it stalled, broke off, came back empty, or held an unusable tool call. */
function fromAnswerError(error: unknown, context: ErrorContext, detail: string): UserFacingError | undefined {
  if (error instanceof CutAnswerError) return new UserFacingError('cut', cutMessage(context.model, error.reason), errorDetail(error.cutBy));
  if (error instanceof StreamIdleTimeoutError) {
    return new UserFacingError('timeout', `${context.model} sent nothing for ${formatDuration(error.ms)}, so the request was stopped. Try again, or raise opencode.streamIdleTimeoutSeconds for slow models.`, detail);
  }
  if (error instanceof StreamInterruptedError) {
    return new UserFacingError('network', `The connection to ${context.baseUrl} broke before ${context.model} had answered. Check your network and try again.`, detail);
  }
  if (error instanceof EmptyAnswerError) return new UserFacingError('empty', emptyAnswerMessage(error, context.model), detail);
  if (error instanceof ToolCallArgumentsError) {
    return new UserFacingError('output', `${context.model} called the tool "${error.toolName}" with arguments that are not valid JSON, so the call was not run. Try again, or pick another model if this repeats.`, detail);
  }
  return undefined;
}

/** The sentence a cut answer fails with, after the text that arrived (issue 29 item 4). */
export function cutMessage(model: string, reason: string): string {
  return `The answer from ${model} was cut off: ${reason}. What arrived is kept above; try again for the whole answer.`;
}

function emptyAnswerMessage(error: EmptyAnswerError, model: string): string {
  if (error.finishReason === 'length') return `${model} reached its output limit before writing anything (finish_reason=length). Start a new chat or pick a model with a larger output limit.`;
  if (error.finishReason === 'content_filter') return `${model}'s provider withheld the answer (finish_reason=content_filter). Rephrase the request and try again.`;
  return `The model returned an empty answer: ${model} sent no text and no tool call. Try again, or pick another model if this repeats.`;
}

/** OpenCode's error classes → the kind the adapter reports; only a real AuthError is about the key. */
const OPENCODE_KINDS: Record<OpenCodeErrorKind, ErrorKind> = {
  'wrong-route': 'model',
  'free-tier': 'model',
  region: 'model',
  credits: 'quota',
  'usage-limit': 'quota',
  'missing-session': 'request',
  auth: 'key',
};

function fromStatus(error: APIError, status: number, context: ErrorContext, detail: string): UserFacingError {
  const text = detail.toLowerCase();
  // Before the status rules: OpenCode answers 401 for a wrong route and 403 for the free tier. A real
  // AuthError falls through to the key sentence below.
  const openCode = openCodeErrorOf(error);
  if (openCode && openCode.kind !== 'auth') return new UserFacingError(OPENCODE_KINDS[openCode.kind], openCode.message, detail, status);
  if (status === 401 || status === 403) {
    return new UserFacingError('key', `${context.baseUrl} rejected the API key (HTTP ${status}). ${SET_KEY_HINT}`, detail, status);
  }
  if (isQuotaError(error)) {
    return new UserFacingError('quota', `Your OpenCode account has no quota or credit left for ${context.model} (HTTP ${status}). Top up or check your plan, then try again.`, detail, status);
  }
  if (status === 429) return new UserFacingError('rate', rateLimitMessage(error, context.model), detail, status);
  if (/model_not_found|does not exist|unknown model|no such model/.test(text)) {
    return new UserFacingError('model', `The endpoint does not serve the model "${context.model}". Run "OpenCode: Refresh Models" and pick another model.`, detail, status);
  }
  if (status === 404) {
    return new UserFacingError('request', `${context.baseUrl} has no chat-completions route (HTTP 404). Check the opencode.baseUrl setting (OpenAI-compatible endpoints usually end in /v1).`, detail, status);
  }
  if (isContextLengthMessage(text)) {
    return new UserFacingError('context', `The request is too long for ${context.model} even after trimming (HTTP ${status}). If this chat is long, start a new one; if it is new, what the chat sends with every request (instructions and tools) does not fit: pick a model with a larger context window, or turn tools off in the chat's tool picker.`, detail, status);
  }
  if (status >= 500) {
    return new UserFacingError('server', `The model service had an error (HTTP ${status}). Try again in a moment.`, detail, status);
  }
  return new UserFacingError('request', `${context.model} refused the request (HTTP ${status}): ${firstSentence(error.message, context.apiKey)}`, detail, status);
}

function rateLimitMessage(error: APIError, model: string): string {
  const wait = retryAfterMs(error);
  if (wait !== undefined && wait > MAX_RETRY_AFTER_MS) {
    return `${model} is rate-limited (HTTP 429) and the service asks to wait ${formatDuration(wait)}. Try again after that.`;
  }
  return `${model} is rate-limited right now (HTTP 429). Wait a moment and try again.`;
}

/** An HTTP error saying the prompt is too long (never the model's own output, which may contain those words). */
export function isContextLengthError(error: unknown): boolean {
  return error instanceof APIError && typeof error.status === 'number' && isContextLengthMessage(error.message);
}

/** Every provider's wording (core/models/contextRefusal.ts, beside the parser of the limit it names). */
export function isContextLengthMessage(text: string): boolean {
  return isContextLengthWording(text);
}

/** What the log gets: the status and the server's own words (and codes), or the error chain. */
export function errorDetail(error: unknown): string {
  return redact(rawDetail(error));
}

function rawDetail(error: unknown): string {
  if (error instanceof APIError) {
    const codes = [error.type && `type=${error.type}`, error.code && `code=${error.code}`].filter(Boolean);
    return `${error.message}${codes.length ? ` [${codes.join(', ')}]` : ''}${causeOf(error)}`;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}${causeOf(error)}`;
  return String(error);
}

/** The cause chain (fetch failed → connect ECONNREFUSED …), a few levels deep. */
function causeOf(error: Error): string {
  const causes: string[] = [];
  for (let cause = error.cause, depth = 0; cause !== undefined && depth < 3; depth++) {
    causes.push(cause instanceof Error ? cause.message : String(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return causes.length ? ` (cause: ${causes.join(' ← ')})` : '';
}

/** The server's words for a chat sentence: no status prefix, an HTML page reduced to text, a short excerpt. */
function firstSentence(message: string, apiKey: string | undefined): string {
  return excerptOf(message.replace(/^\d{3}\s+/, ''), undefined, [apiKey]);
}

/**
 * The `[error]` line for a request that failed for good. A UserFacingError's detail is already a short redacted
 * excerpt; any other error is a bug of ours, so its stack frames follow an excerpt of its message.
 */
export function errorLogLine(modelId: string, error: unknown): string {
  if (error instanceof UserFacingError) return `[error] ${outsideText(modelId)}: ${error.message} (${error.detail})`;
  const frames = error instanceof Error && error.stack ? error.stack.split('\n').filter((line) => /^\s+at\s/.test(line)).slice(0, 12) : [];
  const name = error instanceof Error ? `${error.name}: ` : '';
  return redact([`[error] ${outsideText(modelId)}: ${name}${unexpectedErrorMessage(error)}`, ...frames].join('\n'));
}

/** What the chat shows for an error that is not a UserFacingError: a short, redacted excerpt of its message. */
export function unexpectedErrorMessage(error: unknown): string {
  return excerptOf(error instanceof Error ? error.message : String(error), ERROR_DETAIL_MAX);
}

/*
 * A request whose fixed part (the tools and the instructions) is over the budget (core/trim/planTrim.ts
 * measureFixedPart): refused before it is sent, with the figures the user needs (what the tools take, what would
 * fit, what to do).
 */
const n = (value: number): string => Math.max(0, Math.round(value)).toLocaleString('en-US');

/** What to tell the user: what takes the room, what would fit, what to do. */
export function fixedPartMessage(part: FixedPart): string {
  if (!overTokens(part)) return bytesMessage(part);
  const budget = `${outsideText(part.modelId)}'s input budget of ${n(part.budgetTokens)} tokens`;
  const instructions = `the instructions (system prompt) ~${n(part.systemTokens)}`;
  if (part.toolCount === 0) {
    return `The request cannot fit ${budget}: ${instructions} tokens alone, before any of the conversation. Pick a model with a larger context window.`;
  }
  const fits = part.ceilingTokens - part.systemTokens - part.newestTokens;
  const room = fits > 0 ? `At most ~${n(fits)} tokens of tools would fit with these instructions and your message.` : 'No tools would fit with these instructions and your message.';
  return (
    `The request cannot fit ${budget}: the ${part.toolCount} tools offered by the chat take ~${n(part.toolsTokens)} tokens and ${instructions}, ` +
    `before any of the conversation. ${room} Pick a model with a larger context window, or turn tools off in the chat's tool picker (Configure Tools).`
  );
}

/** Under the token ceiling but over the byte ceiling (schemas and prompts heavy in bytes per token). */
function bytesMessage(part: FixedPart): string {
  const what = part.toolCount === 0 ? `the instructions (system prompt) take ${n(part.systemBytes)} bytes` : `the ${part.toolCount} tools offered by the chat take ${n(part.toolsBytes)} bytes and the instructions (system prompt) ${n(part.systemBytes)}`;
  const tools = part.toolCount === 0 ? '' : ", or turn tools off in the chat's tool picker (Configure Tools)";
  return `The request cannot fit the ${n(part.maxBytes)} bytes a request to ${outsideText(part.modelId)} may take: ${what}, before any of the conversation. Raise opencode.maxRequestBytes if the endpoint takes larger requests, pick a model with a larger context window${tools}.`;
}

/** The refusal the provider shows (kind 'context'); the detail, for the log, holds the same figures. */
export function fixedPartError(part: FixedPart): UserFacingError {
  const detail =
    `tools=${part.toolCount} (~${part.toolsTokens} tokens, ${part.toolsBytes} bytes) system=~${part.systemTokens} (${part.systemBytes} bytes) ` +
    `newest=~${part.newestTokens} budget=${part.budgetTokens} ceiling=${part.ceilingTokens} maxBytes=${part.maxBytes}`;
  return new UserFacingError('context', fixedPartMessage(part), detail);
}
