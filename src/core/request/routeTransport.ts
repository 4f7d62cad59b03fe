/**
 * The one send-and-read path, whatever the route: POST the route's body (routeHttp.ts), read the 200 by its
 * content type, feed every SSE payload to the route's reader, and end the read the way the chat path always
 * has: at the end marker at once, shortly after a finish reason (core/stream/answerEnd.ts), on the idle
 * timeout, on cancellation. The SDK's own retries are off; retry policy lives above this (retryPolicy.ts).
 *
 * The SSE body is read here rather than by an SDK iterator, which throws away the rest of the answer on one
 * bad payload and ends silently when the request is aborted, making an idle timeout look like a complete
 * answer (docs/issues/002). After a finish reason a stall or a broken connection ends the stream normally:
 * the answer was complete (docs/issues/009).
 */
import { APIError } from 'openai';
import { sendRoute, ssePayloads } from '../routes/routeHttp';
import type { ReadResult, Route, StreamReader } from '../routes/route';
import { reportedCostOf } from '../cost/costFrame';
import { AFTER_USAGE_MS, AnswerEnd } from '../stream/answerEnd';
import { framesOfJsonBody } from '../stream/completionBody';
import { ToolCallArgumentsError } from '../stream/toolCallAccumulator';
import { isRecord } from '../util/isRecord';
import { redact } from '../util/redact';
import { clientFor, type Endpoint } from './chatTransport';
import { NotAnAnswerError, StreamIdleTimeoutError, StreamInterruptedError } from './streamErrors';
import { excerptOf } from './streamLog';

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
}

/**
 * Every ReadResult of one answer, in order (events, skipped payloads). Throws StreamIdleTimeoutError when
 * nothing arrives for idleTimeoutMs (before the response too), StreamInterruptedError when the connection
 * breaks mid-answer, the SDK's APIError for HTTP errors and for an error the stream carried (message
 * redacted), NotAnAnswerError for a page instead of an answer, and an AbortError when the caller cancels.
 */
export async function* streamRoute(endpoint: Endpoint, options: RouteSendOptions, reader: StreamReader): AsyncGenerator<ReadResult> {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  if (options.signal.aborted) abort();
  options.signal.addEventListener('abort', abort, { once: true });
  const idle = idleWatch(abort);
  const end = new AnswerEnd(options.idleTimeoutMs, options.expectUsage);
  let answering = false;
  /** The end marker arrived: the answer is complete; only OpenCode's cost frame is still read (costTail). */
  let ended = false;
  try {
    idle.arm(options.idleTimeoutMs);
    const headers = { sessionId: options.sessionId, requestId: options.requestId, client: options.client };
    const response = await sendRoute(clientFor(endpoint), { route: options.route, body: options.body, modelId: options.modelId, headers, signal: controller.signal });
    answering = true;
    for await (const result of resultsOf(response, options.route, reader)) {
      if (result.error) throw new APIError(undefined, redactedError(result.error), undefined, response.headers);
      yield result;
      if (ended || result.end) {
        // The cost frame follows the end marker; wait for it briefly, and stop at it or at anything going wrong.
        if (ended && result.cost !== undefined) return;
        ended = true;
        idle.arm(AFTER_USAGE_MS);
        continue;
      }
      end.note({ finishReason: !!reader.summary.finishReason, usage: reader.summary.sawUsage });
      idle.arm(end.nextWaitMs());
    }
  } catch (error) {
    // The reader refused the answer itself (a tool call that is not JSON): not a transport failure.
    if (error instanceof ToolCallArgumentsError) throw error;
    // After the end marker nothing can spoil the answer: silence, a reset or a cancel only end the wait for the cost.
    if (ended) return;
    const userCancelled = options.signal.aborted;
    // Finish reason in hand: silence or a reset now costs nothing (no end marker, maybe no usage) and is no error.
    if (end.finished && !userCancelled && !(error instanceof APIError)) return;
    if (idle.fired) throw new StreamIdleTimeoutError(options.idleTimeoutMs);
    if (userCancelled || error instanceof APIError || error instanceof NotAnAnswerError || !answering) throw error;
    throw StreamInterruptedError.from(error);
  } finally {
    idle.stop();
    options.signal.removeEventListener('abort', abort);
    // Leaving the loop early (cancellation, the end marker, a thrown consumer) must close the HTTP request at once.
    controller.abort();
  }
}

/** The gateway's error object, its message redacted: it is shown to the user and logged. */
function redactedError(error: Record<string, unknown>): Record<string, unknown> {
  return typeof error.message === 'string' ? { ...error, message: redact(error.message) } : error;
}

/**
 * A 200 read by content type: a JSON body is one answer or one error, an HTML page is no answer at all,
 * anything else is SSE (some servers send SSE without the right type).
 */
async function* resultsOf(response: Response, route: Route, reader: StreamReader): AsyncGenerator<ReadResult> {
  const type = response.headers.get('content-type') ?? '';
  if (/\bjson\b/i.test(type)) {
    yield* resultsOfJsonBody(await response.text(), route, reader);
    return;
  }
  if (/\bhtml\b/i.test(type)) throw new NotAnAnswerError('an HTML page', excerptOf(await response.text(), 120));
  let ended = false;
  for await (const data of ssePayloads(response.body)) {
    const cost = reportedCostOf(data);
    if (ended) {
      if (cost !== undefined) yield { events: [], cost };
      continue;
    }
    const result = reader.push(data);
    ended = result.end === true;
    yield cost === undefined ? result : { ...result, cost };
  }
}

/**
 * A 200 JSON body instead of a stream (docs/issues/011): `{error}` on any route is the error it says; on the
 * chat route a whole completion is read as one chunk and `[DONE]`; a native route's non-streamed body is not
 * an answer we can read (we always ask for a stream), so it is reported as such.
 */
function* resultsOfJsonBody(text: string, route: Route, reader: StreamReader): Generator<ReadResult> {
  if (route.id === 'chat') {
    for (const frame of framesOfJsonBody(text)) {
      if (frame.kind === 'chunk') yield frame.raw === undefined ? reader.push(frame.chunk) : { ...reader.push(frame.chunk), wrongShape: frame.raw };
      else yield reader.push(frame.kind === 'done' ? '[DONE]' : frame.kind === 'malformed' ? frame.raw : { error: frame.error });
    }
    return;
  }
  const parsed = parseJson(text);
  if (isRecord(parsed) && parsed.error) {
    yield { events: [], error: isRecord(parsed.error) ? parsed.error : { message: String(parsed.error) } };
    return;
  }
  throw new NotAnAnswerError('a JSON body instead of an event stream', excerptOf(text, 120));
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
