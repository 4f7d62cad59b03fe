/**
 * The parts of a request every route shares (each route's body and reader are its own):
 * - the headers: OpenCode's routing headers, plus the key where the route's endpoint reads it (Bearer for chat and
 *   Responses, only `x-api-key` for /messages — OpenCode ignores Bearer there);
 * - VS Code's sampling options → the field names a route's format uses (absent or invalid values are not sent);
 * - the cache lifetime the provider is asked for (below, docs/prompt-cache.md);
 * - the POST itself, through the `openai` SDK client the chat route already uses (one client, one construction,
 *   retries off, the same APIError for every HTTP error); the answer's SSE body is read by core/stream
 *   (docs/architecture.md: why). The key goes where the route's headers name it (chatTransport.ts: KEY_HEADER);
 *   nothing else the environment or the SDK adds is sent.
 */
import type OpenAI from 'openai';
import { CACHE_RULES } from '../cost/cacheRules';
import type { BodyInput, HeaderInput, Route, SamplingOptions } from './route';
import { isRecord } from '../util/jsonFields';

/**
 * Internal request header naming where the route wants the key: `authorization` (Bearer, the default),
 * `x-api-key` (/messages) or `x-goog-api-key` (Gemini). The fetch wrapper consumes it; it is never sent.
 */
export const KEY_HEADER = 'x-opencode-key-header';
export type KeyHeaderName = 'authorization' | 'x-api-key' | 'x-goog-api-key';

export function openCodeHeaders(input: HeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'x-opencode-session': input.sessionId,
    'x-opencode-request': input.requestId,
  };
  if (input.client) headers['x-opencode-client'] = input.client;
  return headers;
}

/** Chat and Responses: the key as `Authorization: Bearer` (the client's fetch wrapper adds it). */
export function bearerHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), [KEY_HEADER]: 'authorization' };
}

/** /messages: the key only as `x-api-key` (OpenCode ignores Bearer there). */
export function apiKeyHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), [KEY_HEADER]: 'x-api-key' };
}

/** Anthropic Messages: `x-api-key` and the API version header. */
export function anthropicHeaders(input: HeaderInput): Record<string, string> {
  return { ...apiKeyHeaders(input), 'anthropic-version': '2023-06-01' };
}

/** Gemini: the key only as `x-goog-api-key`. */
export function googleKeyHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), [KEY_HEADER]: 'x-goog-api-key' };
}

export function samplingFields(options: SamplingOptions | undefined, names: { maxTokens: string; stop: boolean }, outputRoom?: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!options) return out;
  if (typeof options.temperature === 'number') out.temperature = options.temperature;
  if (typeof options.top_p === 'number') out.top_p = options.top_p;
  if (typeof options.max_tokens === 'number' && options.max_tokens > 0) out[names.maxTokens] = withinRoom(Math.floor(options.max_tokens), outputRoom);
  if (names.stop && options.stop?.length) out.stop = options.stop;
  return out;
}

/** A max output the body sends, never above what the window leaves (BodyInput.outputRoom, core/trim/budget.ts). */
export function withinRoom(max: number, outputRoom: number | undefined): number {
  return outputRoom !== undefined && outputRoom > 0 ? Math.min(max, outputRoom) : max;
}

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

/*
 * How long the provider is asked to keep the conversation's cached prefix, per route (docs/prompt-cache.md):
 * - Chat Completions and Responses, OpenAI-family models: `prompt_cache_retention: "24h"` (same price as the
 *   in-memory default, so on by default). A 400 naming the field drops it for that model (sendBody.ts).
 * - Messages: every breakpoint's `cache_control` gets `ttl: "1h"` when asked (writes cost 2× input instead of
 *   1.25×, so off by default).
 * The choice depends only on the settings, the route and the model id, never on the history: every request of a
 * conversation carries the same fields, so the bytes before the cut stay the same.
 */
export type OpenAiRetention = '24h' | 'default';
export type AnthropicTtl = '5m' | '1h';

/** What the settings ask for; route-neutral (each body builder takes the part its format has). */
export interface CacheLifetime {
  openaiRetention: OpenAiRetention;
  anthropicTtl: AnthropicTtl;
}

export const DEFAULT_CACHE_LIFETIME: CacheLifetime = { openaiRetention: '24h', anthropicTtl: '5m' };

/** OpenAI's own models (the id after any provider prefix): knowledge that only adds the field, never gates a request. */
export function isOpenAiFamily(modelId: string): boolean {
  return /^(gpt-|o\d|chatgpt-|codex-)/.test(modelId.toLowerCase().replace(/^.*\//, ''));
}

/** The `prompt_cache_retention` value for a Chat Completions or Responses body, or undefined for none. */
export function retentionField(input: Pick<BodyInput, 'modelId' | 'cacheLifetime'>): '24h' | undefined {
  return input.cacheLifetime?.openaiRetention === '24h' && isOpenAiFamily(input.modelId) ? '24h' : undefined;
}

/** The `cache_control` a Messages breakpoint carries. */
export function breakpointMarker(input: Pick<BodyInput, 'cacheLifetime'>): Record<string, string> {
  return input.cacheLifetime?.anthropicTtl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/** A Messages body whose breakpoints keep only `{"type":"ephemeral"}` (the model refused `ttl`): new objects, the input untouched. */
export function withoutTtl(body: Record<string, unknown>): Record<string, unknown> {
  const unmark = (block: unknown): unknown => {
    if (!isRecord(block) || !isRecord(block.cache_control) || !('ttl' in block.cache_control)) return block;
    const { ttl: _refused, ...marker } = block.cache_control;
    return { ...block, cache_control: marker };
  };
  const out: Record<string, unknown> = { ...body };
  if (Array.isArray(body.tools)) out.tools = body.tools.map(unmark);
  if (Array.isArray(body.system)) out.system = body.system.map(unmark);
  if (Array.isArray(body.messages)) out.messages = body.messages.map((m) => (isRecord(m) && Array.isArray(m.content) ? { ...m, content: m.content.map(unmark) } : m));
  return out;
}

/** The body marks a breakpoint with the 1-hour lifetime (its cache writes are priced at the 1-hour rate). */
export function longLivedWrites(body: Record<string, unknown>): boolean {
  const blocks: unknown[] = [];
  if (Array.isArray(body.tools)) blocks.push(...body.tools);
  if (Array.isArray(body.system)) blocks.push(...body.system);
  if (Array.isArray(body.messages)) for (const message of body.messages) if (isRecord(message) && Array.isArray(message.content)) blocks.push(...message.content);
  return blocks.some((block) => isRecord(block) && isRecord(block.cache_control) && block.cache_control.ttl === '1h');
}

/**
 * How long an OpenAI-style prefix lives unread (also Gemini's implicit cache, whose lifetime is not published: the
 * low end), ms; undefined with the 24-hour retention, which outlives any pause worth warming for.
 */
export function inMemoryPrefixMs(body: Record<string, unknown>): number | undefined {
  return body.prompt_cache_retention === '24h' ? undefined : CACHE_RULES.openaiInMemory.lifetimeMs;
}

/** Anthropic's breakpoints live 5 minutes, or an hour with `ttl: "1h"`. */
export function breakpointPrefixMs(body: Record<string, unknown>): number {
  return (longLivedWrites(body) ? CACHE_RULES.anthropic1h : CACHE_RULES.anthropic5m).lifetimeMs;
}
