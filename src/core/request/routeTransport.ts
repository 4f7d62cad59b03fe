/**
 * The one send-and-read path, whatever the route: POST the route's body (routeHttp.ts), read the 200 by its
 * content type (and, when the type does not say, by its first bytes: core/stream/bodyPeek.ts), feed every SSE
 * event to the route's reader, and end the read: shortly after the end marker (OpenCode's cost frame may follow)
 * or a finish reason (core/stream/answerEnd.ts), on the idle timeout (only progress restarts it), on cancellation. The SDK's own retries are off; retry policy lives above this (retryPolicy.ts).
 *
 * The SSE body is read here rather than by an SDK iterator, which throws away the rest of the answer on one
 * bad payload and ends silently when the request is aborted, making an idle timeout look like a complete
 * answer (docs/issues/002). After a finish reason a stall or a broken connection ends the stream normally:
 * the answer was complete (docs/issues/009).
 */
import { APIError } from 'openai';
import { sendRoute, ssePayloads } from '../routes/routeHttp';
import type { ReadResult, StreamReader } from '../answer/streamReader';
import type { Route } from '../routes/route';
import { AnswerEnd } from '../stream/answerEnd';
import { bodyText, peekBody } from '../stream/bodyPeek';
import { redact } from '../util/redact';
import { clientFor, type Endpoint } from './chatTransport';
import { NotAnAnswerError, StreamIdleTimeoutError, StreamInterruptedError } from './streamErrors';
import { excerptOf } from '../util/excerpt';
import { isRecord } from '../util/jsonFields';
import { ToolCallArgumentsError } from '../answer/toolCalls';

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
      const answer = reader.result();
      const wait = end.note({ progress: result.progress, finishReason: !!answer.finishReason, usage: !!answer.usage, end: result.end });
      // After the end marker, only the cost frame is worth waiting for.
      if (answer.sawEnd && answer.cost !== undefined) return;
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
