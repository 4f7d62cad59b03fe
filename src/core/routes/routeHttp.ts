/**
 * Sending a route's request through the `openai` SDK client the chat route already uses (one client, one
 * construction, retries off, the same APIError for every HTTP error), and reading the answer's SSE body
 * ourselves (docs/architecture.md: why). The key goes where the route's headers name it (clientOptions.ts:
 * KEY_HEADER); nothing else the environment or the SDK adds is sent.
 */
import type OpenAI from 'openai';
import { SseDecoder, type SseEvent } from '../stream/sseDecoder';
import type { HeaderInput, Route } from './route';

export interface RouteSend {
  route: Route;
  body: Record<string, unknown>;
  headers: HeaderInput;
  signal?: AbortSignal;
  /** The model, for routes whose path names it (Gemini). */
  modelId?: string;
}

/** POST {base}{route.path}; resolves with the raw streaming Response, throws the SDK's APIError on HTTP errors. */
export function sendRoute(client: OpenAI, send: RouteSend): Promise<Response> {
  const headers = send.route.headers(send.headers);
  const path = send.route.pathFor && send.modelId !== undefined ? send.route.pathFor(send.modelId) : send.route.path;
  return client.post(path, { body: send.body, headers, signal: send.signal, stream: true }).asResponse();
}

/** The events (`data` and `event:` name) of an SSE body, decoded as UTF-8 across chunk boundaries. */
export async function* ssePayloads(body: ReadableStream<Uint8Array> | null): AsyncGenerator<SseEvent> {
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
