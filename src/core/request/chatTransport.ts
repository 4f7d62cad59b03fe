/**
 * The one place that talks HTTP: the `openai` SDK's chat.completions.create with streaming, the
 * OpenCode headers, cancellation wired to an AbortController, an idle timeout between chunks, and the SSE
 * body read frame by frame.
 * The SDK's own retries are off; retry policy lives in one place above this (retryPolicy.ts).
 */
import OpenAI, { APIError } from 'openai';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { SseDecoder } from '../stream/sseDecoder';
import { AnswerEnd } from '../stream/answerEnd';
import { framesOfJsonBody } from '../stream/completionBody';
import { redact } from '../util/redact';
import { frameOf, type StreamFrame } from '../stream/streamFrame';
import { NotAnAnswerError, StreamIdleTimeoutError, StreamInterruptedError } from './streamErrors';
import { excerptOf } from './streamLog';
import { BoundedMap } from '../util/boundedMap';
import { openAIClientOptions } from './clientOptions';

export interface ChatRequestBody {
  model: string;
  messages: WireMessage[];
  tools?: WireTool[];
  tool_choice?: 'required';
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
}

export interface Endpoint {
  baseUrl: string;
  apiKey: string | undefined;
}

export interface SendOptions {
  /** false when the model rejects `stream_options` (then no usage arrives). Default true. */
  includeUsage?: boolean;
  sessionId: string;
  requestId: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
}

/** A few endpoints at most (a settings change, a key change); each keeps its HTTP connections alive. */
const clients = new BoundedMap<string, OpenAI>(4);

/**
 * One SDK client per endpoint and key. Built with options that ignore the environment (clientOptions.ts):
 * only the base URL, the key and the headers this extension sets reach the endpoint.
 */
export function clientFor(endpoint: Endpoint): OpenAI {
  const key = `${endpoint.baseUrl}\u0000${endpoint.apiKey ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    // Loopback servers (Ollama, vLLM, the fake server) need no key: then none is sent.
    client = new OpenAI(openAIClientOptions(endpoint.baseUrl, endpoint.apiKey ?? ''));
    clients.set(key, client);
  }
  return client;
}

export type StreamItem = Exclude<StreamFrame, { kind: 'error' }>;

/**
 * Streams the frames of one answer: chunks, `[DONE]`, and payloads that were not JSON (the caller skips
 * and logs those). The SSE body is read here rather than by the SDK, whose iterator throws away the rest
 * of the answer on one bad payload and ends silently when the request is aborted, which made an idle
 * timeout look like a complete answer (docs/issues/002-stall-after-text-looked-complete.md). A 200 JSON
 * body instead of a stream is read as one (docs/issues/011).
 *
 * The answer is over at `[DONE]`: reading stops and the request is closed. After a finish reason the wait
 * for the rest is short (core/stream/answerEnd.ts), and a stall or a broken connection then ends the
 * stream normally: the answer was complete (docs/issues/009).
 *
 * Throws StreamIdleTimeoutError when nothing arrives for idleTimeoutMs (before the response too),
 * StreamInterruptedError when the connection breaks mid-answer, the SDK's APIError for HTTP errors and
 * for an error the gateway sends inside the stream, and an AbortError when the caller cancels.
 */
export async function* streamChat(endpoint: Endpoint, body: ChatRequestBody, options: SendOptions): AsyncGenerator<StreamItem> {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  if (options.signal.aborted) abort();
  options.signal.addEventListener('abort', abort, { once: true });
  const idle = idleWatch(abort);
  const end = new AnswerEnd(options.idleTimeoutMs, options.includeUsage !== false);
  let answering = false;
  try {
    idle.arm(options.idleTimeoutMs);
    const response = await clientFor(endpoint)
      .chat.completions.create(
        {
          ...(body as unknown as OpenAI.ChatCompletionCreateParamsStreaming),
          stream: true,
          ...(options.includeUsage === false ? {} : { stream_options: { include_usage: true } }),
        },
        { signal: controller.signal, headers: { 'x-opencode-session': options.sessionId, 'x-opencode-request': options.requestId } },
      )
      .asResponse();
    answering = true;
    for await (const frame of framesOf(response)) {
      if (frame.kind === 'error') throw new APIError(undefined, redactedError(frame.error), undefined, response.headers);
      if (frame.kind === 'done') return yield frame;
      if (frame.kind === 'chunk') end.note({ finishReason: frame.chunk.choices.some((c) => c.finish_reason), usage: !!frame.chunk.usage });
      idle.arm(end.nextWaitMs());
      yield frame;
    }
  } catch (error) {
    const userCancelled = options.signal.aborted;
    // Finish reason in hand: silence or a reset now costs nothing (no [DONE], maybe no usage) and is no error.
    if (end.finished && !userCancelled && !(error instanceof APIError)) return;
    if (idle.fired) throw new StreamIdleTimeoutError(options.idleTimeoutMs);
    if (userCancelled || error instanceof APIError || error instanceof NotAnAnswerError || !answering) throw error;
    throw StreamInterruptedError.from(error);
  } finally {
    idle.stop();
    options.signal.removeEventListener('abort', abort);
    // Leaving the loop early (cancellation, [DONE], a thrown consumer) must close the HTTP request at once.
    controller.abort();
  }
}

/** The gateway's error object, its message redacted: it is shown to the user and logged. */
function redactedError(error: Record<string, unknown>): Record<string, unknown> {
  return typeof error.message === 'string' ? { ...error, message: redact(error.message) } : error;
}

/**
 * The frames of a 200 answer, read by content type: a JSON body is one answer or one error, an HTML page is no
 * answer at all, anything else is SSE (some servers send SSE without the right type).
 */
async function* framesOf(response: Response): AsyncGenerator<StreamFrame> {
  const type = response.headers.get('content-type') ?? '';
  if (/\bjson\b/i.test(type)) {
    yield* framesOfJsonBody(await response.text());
    return;
  }
  if (/\bhtml\b/i.test(type)) throw new NotAnAnswerError('an HTML page', excerptOf(await response.text(), 120));
  for await (const data of ssePayloads(response.body)) yield frameOf(data);
}

/** The `data` payloads of an SSE body, decoded as UTF-8 across chunk boundaries. */
async function* ssePayloads(body: ReadableStream<Uint8Array> | null): AsyncGenerator<string> {
  if (!body) return;
  const reader = body.getReader();
  const utf8 = new TextDecoder();
  const sse = new SseDecoder();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* sse.push(utf8.decode(value, { stream: true }));
    }
    finished = true;
    yield* sse.push(utf8.decode());
    yield* sse.flush();
  } finally {
    if (!finished) reader.cancel().catch(() => undefined);
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

/** GET {baseUrl}/models through the SDK, raw JSON so every endpoint's extra fields survive. */
export async function fetchModelList(endpoint: Endpoint, signal?: AbortSignal): Promise<unknown> {
  const response = await clientFor(endpoint).get('/models', { signal });
  return response;
}
