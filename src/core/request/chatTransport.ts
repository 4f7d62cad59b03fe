/**
 * The one SDK client per endpoint and key, its options, and the model list. Requests go through routeTransport.ts
 * (every route, one send-and-read path); this builds and caches the client.
 *
 * The client is built so that the environment cannot add anything. The SDK reads process variables when a client is
 * built: OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENAI_ADMIN_KEY, OPENAI_WEBHOOK_SECRET, OPENAI_LOG (debug
 * logs request headers to the console) and OPENAI_CUSTOM_HEADERS (which can replace Authorization). Every one of them
 * is given an explicit value here, and a fetch wrapper has the last word: it sends only allow-listed headers, puts
 * the key in the one header the route names (and nowhere else), refuses any URL outside the configured base URL, and
 * follows a redirect only inside it (below: Node's fetch would replay the body and the key to another host).
 * (The routes do not use `@anthropic-ai/sdk`, so its ANTHROPIC_* variables are never read: docs/routes.md.)
 */
import { randomUUID } from 'crypto';
import OpenAI, { type APIError, type ClientOptions as OpenAIOptions } from 'openai';
import { BoundedMap } from '../util/boundedMap';
import { EXTENSION_VERSION } from './version';
import { redactUrl } from '../util/redact';
import { KEY_HEADER, type KeyHeaderName } from '../routes/requestParts';
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
 * One SDK client per endpoint and key. Built with options that ignore the environment (below):
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

/** The extension's name as it introduces itself to endpoints (OpenCode asks clients for their own User-Agent). */
export const CLIENT_NAME = 'opencode-chat-provider';
let hostPart = '';

/** The editor it runs in, from the adapter at activation (core never imports vscode). */
export function setHostVersion(vscodeVersion: string): void {
  hostPart = /^[\w.+-]{1,40}$/.test(vscodeVersion) ? ` VSCode/${vscodeVersion}` : '';
}

/** `opencode-chat-provider/0.1.0 VSCode/1.139.0` on every request of every route, never the SDK's own. */
export function userAgent(): string {
  return `${CLIENT_NAME}/${EXTENSION_VERSION}${hostPart}`;
}

const KEY_HEADERS: readonly KeyHeaderName[] = ['authorization', 'x-api-key', 'x-goog-api-key'];

/** Headers that reach the endpoint besides the key: the body's framing and the ones our routes set. */
const ALLOWED_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'user-agent',
  'x-opencode-session',
  'x-opencode-request',
  'x-opencode-client',
  'anthropic-version',
  'anthropic-beta',
]);
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface IsolatedFetchInput {
  baseURL: string;
  /** The key; empty for loopback servers that need none (then no key header is sent). */
  apiKey: string;
}

/** A fetch that sends only what the extension decided, whatever the SDK or the environment added. */
export function isolatedFetch(input: IsolatedFetchInput, inner: typeof fetch = fetch): typeof fetch {
  const base = input.baseURL.replace(/\/+$/, '');
  return (url, init) => {
    const target = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
    if (!isInsideBase(base, target)) {
      return Promise.reject(new Error(`refused to send a request outside the configured endpoint (${redactUrl(target)})`));
    }
    const given = new Headers(init?.headers);
    const headers = new Headers();
    given.forEach((value, name) => {
      if (ALLOWED_HEADERS.has(name)) headers.set(name, value);
    });
    // The SDK's "OpenAI/JS …" (or a minified class name) is replaced: OpenCode lists generic clients as problematic.
    headers.set('user-agent', userAgent());
    const keyHeader = keyHeaderOf(given.get(KEY_HEADER));
    if (input.apiKey) headers.set(keyHeader, keyHeader === 'authorization' ? `Bearer ${input.apiKey}` : input.apiKey);
    // Redirects are ours to decide: only inside the base URL, never to another host (below).
    return fetchWithinBase(base, target, { ...init, headers }, inner);
  };
}

function keyHeaderOf(value: string | null): KeyHeaderName {
  return KEY_HEADERS.find((name) => name === value) ?? 'authorization';
}

/** `openai` client options: no retries of its own, no logging, no environment, our fetch. */
export function openAIClientOptions(baseURL: string, apiKey: string): OpenAIOptions {
  return {
    baseURL,
    maxRetries: 0,
    timeout: 10 * 60 * 1000,
    logLevel: 'off',
    logger: silent,
    fetch: isolatedFetch({ baseURL, apiKey }),
    // A null default removes a value OPENAI_CUSTOM_HEADERS gave our own headers; a request sets its own.
    defaultHeaders: { 'x-opencode-session': null, 'x-opencode-request': null, 'x-opencode-client': null },
    // The SDK insists on a string; the fetch wrapper decides what (if anything) is sent.
    apiKey: apiKey || 'no-key',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
  };
}

/*
 * Redirects, decided by the extension instead of the platform's fetch. Node's fetch follows a 307 to any host and
 * replays the body there, dropping only `Authorization`: the Messages route's `x-api-key`, Gemini's
 * `x-goog-api-key` and the whole conversation would reach a host the user never configured. So every request is
 * sent with `redirect: 'manual'`; a redirect is followed only when its target is inside the configured base URL
 * (same origin, under the base path), at most MAX_REDIRECTS times; any other one fails the request with an error
 * naming which URL redirected where, and nothing is sent to the other host. Route-neutral: every route, and the
 * model list, send through the one fetch wrapper.
 */
/** Enough for a trailing-slash or a versioned-path move; a loop ends here. */
export const MAX_REDIRECTS = 5;

/** A redirect the extension refused to follow: to another origin, outside the base URL, or one too many. */
export class RedirectRefusedError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly reason: 'outside' | 'too-many' | 'unreadable',
  ) {
    super(redirectSentence(from, to, reason));
    this.name = 'RedirectRefusedError';
  }
}

function redirectSentence(from: string, to: string, reason: RedirectRefusedError['reason']): string {
  const hop = `${redactUrl(from)} redirected to ${redactUrl(to)}`;
  if (reason === 'too-many') return `${hop}, more than ${MAX_REDIRECTS} redirects in a row; the request was stopped.`;
  if (reason === 'unreadable') return `${hop}, which cannot be followed (no usable Location); the request was stopped.`;
  return `${hop}, outside the configured endpoint; the redirect was not followed and nothing was sent there.`;
}

/** True when `target` is the base URL itself or a path under it (same scheme, host and port). */
export function isInsideBase(base: string, target: string): boolean {
  const root = base.replace(/\/+$/, '');
  return target === root || target.startsWith(`${root}/`) || target.startsWith(`${root}?`);
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A fetch that follows redirects only inside `base`; `send` is the inner fetch, always called with redirect 'manual'. */
export async function fetchWithinBase(base: string, url: string, init: RequestInit | undefined, send: typeof fetch): Promise<Response> {
  let current = url;
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hops = 0; ; hops++) {
    const response = await send(current, request);
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    const location = response.headers.get('location');
    const next = location === null ? undefined : resolved(location, current);
    // The redirect's own body is never read: release the connection.
    void response.body?.cancel().catch(() => undefined);
    if (next === undefined) throw new RedirectRefusedError(current, location ?? '(none)', 'unreadable');
    if (!isInsideBase(base, next)) throw new RedirectRefusedError(current, next, 'outside');
    if (hops + 1 > MAX_REDIRECTS) throw new RedirectRefusedError(current, next, 'too-many');
    request = nextRequest(request, response.status);
    current = next;
  }
}

/** 307/308 repeat the request as it was; 301/302 after a POST and every 303 become a GET without a body (as fetch does). */
function nextRequest(request: RequestInit, status: number): RequestInit {
  const method = (request.method ?? 'GET').toUpperCase();
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    const headers = new Headers(request.headers);
    for (const name of ['content-type', 'content-length']) headers.delete(name);
    return { ...request, method: 'GET', body: undefined, headers };
  }
  return request;
}

function resolved(location: string, current: string): string | undefined {
  try {
    return new URL(location, current).href;
  } catch {
    return undefined;
  }
}

/** The refused redirect behind an error (the SDK wraps what the fetch threw as an APIConnectionError's cause). */
export function refusedRedirectOf(error: unknown): RedirectRefusedError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof RedirectRefusedError) return e;
  }
  return undefined;
}
