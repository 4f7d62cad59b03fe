/**
 * The one place that talks HTTP: the `openai` SDK's chat.completions.create with streaming, the
 * OpenCode headers, cancellation wired to an AbortController, and an idle timeout between chunks.
 * The SDK's own retries are off; retry policy lives in one place above this (retryPolicy.ts).
 */
import OpenAI from 'openai';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import type { ChunkLike } from '../stream/streamMapper';
import { StreamIdleTimeoutError } from './userFacingError';

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
  sessionId: string;
  requestId: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
}

const clients = new Map<string, OpenAI>();

/** One SDK client per endpoint and key: it keeps HTTP connections alive between requests. */
export function clientFor(endpoint: Endpoint): OpenAI {
  const key = `${endpoint.baseUrl}\u0000${endpoint.apiKey ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({
      baseURL: endpoint.baseUrl,
      // Loopback servers (Ollama, vLLM, the fake server) need no key; the SDK insists on a string.
      apiKey: endpoint.apiKey || 'no-key',
      maxRetries: 0,
      timeout: 10 * 60 * 1000,
    });
    clients.clear();
    clients.set(key, client);
  }
  return client;
}

/** Streams chunks; throws StreamIdleTimeoutError when no chunk arrives for idleTimeoutMs. */
export async function* streamChat(endpoint: Endpoint, body: ChatRequestBody, options: SendOptions): AsyncGenerator<ChunkLike> {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  if (options.signal.aborted) abort();
  options.signal.addEventListener('abort', abort, { once: true });
  let idleTimer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const armIdleTimer = (): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.idleTimeoutMs);
  };
  try {
    armIdleTimer();
    const stream = await clientFor(endpoint).chat.completions.create(
      { ...(body as unknown as OpenAI.ChatCompletionCreateParamsStreaming), stream: true, stream_options: { include_usage: true } },
      {
        signal: controller.signal,
        headers: { 'x-opencode-session': options.sessionId, 'x-opencode-request': options.requestId },
      },
    );
    for await (const chunk of stream) {
      armIdleTimer();
      yield chunk as ChunkLike;
    }
  } catch (error) {
    if (timedOut) throw new StreamIdleTimeoutError(Math.round(options.idleTimeoutMs / 1000));
    throw error;
  } finally {
    clearTimeout(idleTimer);
    options.signal.removeEventListener('abort', abort);
    // Leaving the loop early (cancellation, a thrown consumer) must close the HTTP request at once.
    controller.abort();
  }
}

/** GET {baseUrl}/models through the SDK, raw JSON so every endpoint's extra fields survive. */
export async function fetchModelList(endpoint: Endpoint, signal?: AbortSignal): Promise<unknown> {
  const response = await clientFor(endpoint).get('/models', { signal });
  return response;
}
