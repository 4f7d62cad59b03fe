/**
 * One attempt at an answer, and the one send-and-read path every route and the warming take.
 *
 * streamAnswer: send the prepared body on its route, read the stream through the route's reader (its translation and
 * the one assembler, core/answer/), hand every shown event to the caller at once, and return what happened as a
 * value: what was shown, the answer's result (usage, cost, finish reason, dropped calls) and the failure, if any. No
 * retry, no accounting: the engine decides those from the returned attempt.
 *
 * streamRoute: POST the route's body (requestParts.ts), read the 200 by its content type (and, when the type does not
 * say, by its first bytes: core/stream/bodyPeek.ts), feed every SSE event to the route's reader, and end the read:
 * shortly after the end marker (OpenCode's cost frame may follow) or a finish reason (core/stream/answerStream.ts), on
 * the idle timeout (only progress restarts it), on cancellation. The SDK's own retries are off; retry policy lives
 * above this (retryPolicy.ts).
 *
 * The SSE body is read here rather than by an SDK iterator, which throws away the rest of the answer on one
 * bad payload and ends silently when the request is aborted, making an idle timeout look like a complete
 * answer (docs/issues/002). After a finish reason a stall or a broken connection ends the stream normally:
 * the answer was complete (docs/issues/009).
 */
import type { Logger } from '../log';
import type { Route } from '../routes/route';
import { newRequestId } from '../session/sessionId';
import type { StreamEvent } from '../types';
import { onceFor } from '../util/onceKeys';
import { redact } from '../util/redact';
import { type Endpoint, clientFor } from './chatTransport';
import { CutAnswerError, EmptyAnswerError, NotAnAnswerError, StreamIdleTimeoutError, StreamInterruptedError } from './streamErrors';
import { brokenCallLine, cutReason, droppedCallsLine, incompleteLine, malformedLine, outputLimitLine, truncationLine, usageAnomalyLine } from './streamLog';
import { APIError } from 'openai';
import { type ReadResult, type StreamReader, type AnswerResult } from '../answer/streamReader';
import { bodyText, peekBody } from '../stream/bodyPeek';
import { excerptOf } from '../util/excerpt';
import { sendRoute } from '../routes/requestParts';
import { ssePayloads, AnswerEnd } from '../stream/answerStream';
import { isRecord } from '../util/jsonFields';
import { ToolCallArgumentsError } from '../answer/toolCalls';

export interface AttemptOptions {
  endpoint: Endpoint;
  route: Route;
  body: Record<string, unknown>;
  sessionId: string;
  modelId: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** Usage was asked for (false when the model refused the route's way of asking). */
  includeUsage: boolean;
  /** x-opencode-client. */
  client?: string;
  log: Logger;
}

/** What the attempt put in front of the user: a retry would repeat text or a call ('answer'), or the thinking. */
export type ShownSoFar = 'nothing' | 'thinking' | 'answer';

export interface Attempt {
  shown: ShownSoFar;
  /** The answer as the assembler read it; its usage is accounted once by the engine, whether or not the attempt failed. */
  answer: AnswerResult;
  /** The end marker or a finish reason arrived, no tool call was dropped, and the stream did not break. */
  complete: boolean;
  /**
   * Why the attempt failed; undefined when it answered. With `shown: 'answer'` it is a CutAnswerError: the text and
   * calls shown stay with the caller, the request fails after them.
   */
  error?: unknown;
}

/**
 * Streams one answer into onEvent (text, thinking, tool calls; usage is in the result). An empty answer is an
 * EmptyAnswerError in the result. A stream that breaks after text or a tool call was shown fails with a
 * CutAnswerError after what was shown (never a note inside the text), and a [stream] warning says so.
 */
export async function streamAnswer(options: AttemptOptions, onEvent: (event: StreamEvent) => void): Promise<Attempt> {
  const requestId = newRequestId();
  const reader = options.route.newReader(requestId);
  const say = (line: string): void => options.log.warn(redact(line, [options.endpoint.apiKey]));
  const seen = { shown: 'nothing' as ShownSoFar };
  const emit = (events: StreamEvent[]): void => {
    for (const event of events) {
      seen.shown = event.kind !== 'thinking' ? 'answer' : seen.shown === 'answer' ? 'answer' : 'thinking';
      onEvent(event);
    }
  };
  options.route.attempt.beforeSend?.(options.body, options.modelId, options.log);
  try {
    for await (const result of streamRoute(options.endpoint, sendOptions(options, requestId), reader)) emit(result.events);
    emit(reader.finish());
    const answer = reader.result();
    if (answer.textChars === 0 && answer.toolCalls === 0) throw new EmptyAnswerError(answer.finishReason, answer.sawEnd);
    return { shown: seen.shown, answer, complete: ended(answer, options.modelId, say) };
  } catch (error) {
    const shown = seen.shown;
    if (options.signal.aborted || shown !== 'answer') return { shown, answer: reader.result(), complete: false, error };
    emit(reader.abandon());
    say(truncationLine(error, options.modelId));
    return { shown, answer: reader.result(), complete: false, error: new CutAnswerError(redact(cutReason(error), [options.endpoint.apiKey]), error) };
  } finally {
    // Skipped payloads, odd usage and dropped calls are worth a line whether or not the stream then completed.
    reportRead(options, reader.result(), say);
  }
}

function sendOptions(options: AttemptOptions, requestId: string) {
  const { route, body, modelId, sessionId, client, signal, idleTimeoutMs } = options;
  return { route, body, modelId, sessionId, client, signal, idleTimeoutMs, requestId, expectUsage: options.includeUsage, apiKey: options.endpoint.apiKey };
}

/** The stream ended normally with content: complete unless no end came or a call was dropped. */
function ended(answer: AnswerResult, model: string, say: (line: string) => void): boolean {
  const unfinished = answer.dropped.filter((call) => call.why === 'unfinished').length;
  if (unfinished > 0) say(droppedCallsLine(model, unfinished));
  else if (!answer.ended) say(incompleteLine(model));
  if (answer.finishReason === 'length') say(outputLimitLine(model));
  return answer.ended && answer.dropped.length === 0;
}

function reportRead(options: AttemptOptions, answer: AnswerResult, say: (line: string) => void): void {
  const { skipped } = answer;
  if (skipped.first !== undefined) say(malformedLine(options.modelId, skipped.notJson + skipped.wrongShape, skipped.first, skippedKind(skipped)));
  for (const call of answer.dropped) if (call.error && answer.toolCalls + answer.textChars > 0) say(brokenCallLine(options.modelId, call.error));
  reportUsageAnomaly(options, answer.usageAnomaly, say);
}

function skippedKind(skipped: AnswerResult['skipped']): string {
  if (skipped.wrongShape === 0) return 'not JSON';
  return skipped.notJson === 0 ? 'fields of the wrong type' : 'not JSON, or fields of the wrong type';
}

function reportUsageAnomaly(options: AttemptOptions, anomaly: string | undefined, say: (line: string) => void): void {
  if (!anomaly) return;
  // Once per model and usage shape (the anomaly's first word) per activation.
  if (onceFor(options.log).first(`usage-anomaly\u0000${options.modelId}\u0000${anomaly.split(' ')[0]}`)) say(usageAnomalyLine(options.modelId, anomaly));
}

export interface RouteSendOptions {
  route: Route;
  body: Record<string, unknown>;
  /** For a route whose path names the model (Gemini). */
  modelId?: string;
  sessionId: string;
  requestId: string;
  /** x-opencode-client. */
  client?: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** Usage was asked for (chat without stream_options gets none): decides the wait after a finish reason. */
  expectUsage: boolean;
  /** The key in use: redacted from every message built from the server's text. */
  apiKey?: string;
}

/** How much of a body that is not an answer is read for its excerpt. */
const EXCERPT_READ = 4_000;

/**
 * Every ReadResult of one answer, in order (events, skipped payloads). Throws StreamIdleTimeoutError when
 * nothing arrives for idleTimeoutMs (before the response too), StreamInterruptedError when the connection
 * breaks mid-answer, the SDK's APIError for HTTP errors and for an error the stream carried (message
 * redacted), NotAnAnswerError for a page or text instead of an answer, and an AbortError when the caller cancels.
 */
export async function* streamRoute(endpoint: Endpoint, options: RouteSendOptions, reader: StreamReader): AsyncGenerator<ReadResult> {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  if (options.signal.aborted) abort();
  options.signal.addEventListener('abort', abort, { once: true });
  const idle = idleWatch(abort);
  const end = new AnswerEnd(options.idleTimeoutMs, options.expectUsage);
  let answering = false;
  try {
    idle.arm(options.idleTimeoutMs);
    const headers = { sessionId: options.sessionId, requestId: options.requestId, client: options.client };
    const response = await sendRoute(clientFor(endpoint), { route: options.route, body: options.body, modelId: options.modelId, headers, signal: controller.signal });
    answering = true;
    for await (const result of resultsOf(response, reader, options.apiKey)) {
      if (result.error && !end.finished) throw new APIError(undefined, redactedError(result.error, options.apiKey), undefined, response.headers);
      yield result;
      const ending = reader.ending();
      const wait = end.note({ progress: result.progress, finishReason: ending.finishReason, usage: ending.usage, end: result.end });
      // After the end marker, only the cost frame is worth waiting for.
      if (ending.sawEnd && ending.cost) return;
      if (wait !== undefined) idle.arm(wait);
    }
  } catch (error) {
    // The reader refused the answer itself (only tool calls that are not JSON): not a transport failure.
    if (error instanceof ToolCallArgumentsError) throw error;
    const userCancelled = options.signal.aborted;
    // Finish reason in hand: silence or a reset now costs nothing (no end marker, maybe no usage) and is no error.
    if (end.finished && !userCancelled && !(error instanceof APIError)) return;
    if (idle.fired) throw new StreamIdleTimeoutError(options.idleTimeoutMs);
    if (userCancelled || error instanceof APIError || error instanceof NotAnAnswerError || !answering) throw error;
    throw StreamInterruptedError.from(error);
  } finally {
    idle.stop();
    options.signal.removeEventListener('abort', abort);
    // Leaving the loop early (cancellation, the end, a thrown consumer) must close the HTTP request at once.
    controller.abort();
  }
}

/** The gateway's error object, its message redacted (with the key in use): it is shown to the user and logged. */
function redactedError(error: Record<string, unknown>, apiKey: string | undefined): Record<string, unknown> {
  return typeof error.message === 'string' ? { ...error, message: redact(error.message, [apiKey]) } : error;
}

/**
 * A 200 read by content type: a JSON body is one answer or one error, an HTML page is no answer at all, an
 * event stream is read as SSE. Without a type that says (none, text/plain, octet-stream…), the first bytes decide:
 * SSE sent with the wrong type still streams, a JSON body is read as one, plain text is shown as what it is.
 */
async function* resultsOf(response: Response, reader: StreamReader, apiKey: string | undefined): AsyncGenerator<ReadResult> {
  const type = response.headers.get('content-type') ?? '';
  const notAnAnswer = async (what: string, body: ReadableStream<Uint8Array> | null): Promise<never> => {
    throw new NotAnAnswerError(what, redact(excerptOf(await bodyText(body, EXCERPT_READ), 120), [apiKey]));
  };
  if (/\bhtml\b/i.test(type)) return notAnAnswer('an HTML page', response.body);
  if (/\bjson\b/i.test(type)) return yield* resultsOfJsonBody(await response.text(), reader, apiKey);
  let body = response.body;
  if (!/\bevent-stream\b/i.test(type)) {
    const peeked = await peekBody(response.body);
    body = peeked.body;
    if (peeked.kind === 'json') return yield* resultsOfJsonBody(await bodyText(body, Infinity), reader, apiKey);
    if (peeked.kind === 'text') return notAnAnswer(type ? `plain text (${type.split(';')[0].trim()})` : 'text without a content type', body);
  }
  for await (const event of ssePayloads(body)) yield reader.push(event.data, event.event);
}

/**
 * A 200 JSON body instead of a stream (docs/issues/011): `{error}` on any route is the error it says; a route
 * whose format has a whole-answer body reads it (chat's completion); anything else is not an answer we can read
 * (we always ask for a stream), and is reported as such.
 */
function* resultsOfJsonBody(text: string, reader: StreamReader, apiKey: string | undefined): Generator<ReadResult> {
  const parsed = parseJson(text);
  const result = isRecord(parsed) ? reader.pushBody(parsed) : undefined;
  if (!result) throw new NotAnAnswerError('a JSON body (not an event stream)', redact(excerptOf(text, 120), [apiKey]));
  yield result;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function idleWatch(onIdle: () => void) {
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  return {
    arm(ms: number): void {
      clearTimeout(timer);
      timer = setTimeout(() => {
        fired = true;
        onIdle();
      }, ms);
    },
    stop(): void {
      clearTimeout(timer);
    },
    get fired(): boolean {
      return fired;
    },
  };
}
