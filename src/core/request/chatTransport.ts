/**
 * The one SDK client per endpoint and key, and the model list. Requests go through routeTransport.ts (every
 * route, one send-and-read path); this only builds and caches the client.
 */
import { randomUUID } from 'crypto';
import OpenAI, { type APIError } from 'openai';
import { BoundedMap } from '../util/boundedMap';
import { openAIClientOptions } from './clientOptions';
import { EXTENSION_VERSION } from './version';
import { isRecord } from '../util/jsonFields';

/** The x-opencode-client value on every request (OpenCode's own clients send theirs). */
export const OPENCODE_CLIENT = `vscode-opencode-chat-provider/${EXTENSION_VERSION}`;

export interface Endpoint {
  baseUrl: string;
  apiKey: string | undefined;
}

/**
 * The SDK reads an error body only under `error`. Endpoints that answer with the error at the top level —
 * Cerebras `{message, type, param, code}`, a pydantic validator's `{detail: […]}`, Mistral's `{object: "error",
 * message: {detail}}` — would reach the engine as "status code (no body)", so neither a refused parameter nor the
 * user's sentence could name what was wrong. Such a body is read as the error itself.
 */
class EndpointClient extends OpenAI {
  protected override makeStatusError(status: number, error: object, message: string | undefined, headers: Headers): APIError {
    return super.makeStatusError(status, isRecord(error) && !('error' in error) ? { error } : error, message, headers);
  }
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
    client = new EndpointClient(openAIClientOptions(endpoint.baseUrl, endpoint.apiKey ?? ''));
    clients.set(key, client);
  }
  return client;
}

/** The model list belongs to no session: one id per activation, sent as x-opencode-session, so the gateway can group the fetches. */
const MODEL_LIST_GROUP_ID = `models-${randomUUID()}`;

/** GET {baseUrl}/models through the SDK, raw JSON so every endpoint's extra fields survive. */
export async function fetchModelList(endpoint: Endpoint, signal?: AbortSignal): Promise<unknown> {
  const headers = { 'x-opencode-client': OPENCODE_CLIENT, 'x-opencode-session': MODEL_LIST_GROUP_ID };
  const response = await clientFor(endpoint).get('/models', { signal, headers });
  return response;
}
