/**
 * One route = one wire format of the gateway (Chat Completions, Responses, Anthropic Messages, Gemini).
 * Everything before "build the body" (convert, repair, trim) and after "read the stream" (accounting, retry)
 * is route-neutral; a route only knows its path, its headers, its body, its stream and its usage. Adding a route is
 * one more folder under src/core/routes and one row in registry/registry.ts (the engine takes the registry as a
 * value: src/test/fifthRoute.test.ts adds a test route so). See docs/routes.md.
 */
import type { StreamReader } from '../answer/streamReader';
import type { Logger } from '../log';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import type { NativeReplay } from '../answer/nativeReplay';
import type { RouteId } from '../routeId';
import { type CacheLifetime } from './requestParts';

/** Sampling options VS Code may pass; each route maps the ones its format has. */
export interface SamplingOptions {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
}

export interface BodyInput {
  modelId: string;
  /** The trimmed, route-neutral history (what the trim cut; identical whatever the route). */
  messages: readonly WireMessage[];
  tools: readonly WireTool[];
  toolChoice?: 'required';
  options?: SamplingOptions;
  /** The conversation's id (x-opencode-session); Responses also sends it as prompt_cache_key. */
  sessionId: string;
  /** The model's max output tokens, when known (Messages must always send max_tokens). */
  maxOutputTokens?: number;
  /**
   * Output tokens the context window leaves after this request's input (core/trim/budget.ts outputRoom): every
   * max output a body sends stays at or below it, so input + max output never exceeds the window. Undefined when
   * the window or the budget is unbounded (trim off, unknown model).
   */
  outputRoom?: number;
  /** The model reasons (Responses asks for encrypted reasoning to pass back). */
  reasons?: boolean;
  /** Native items of earlier answers (reasoning items, signed thinking blocks), looked up by tool-call id. */
  replay?: NativeReplay;
  /** The cache lifetime the settings ask for (requestParts.ts); absent: the provider's default lifetime. */
  cacheLifetime?: CacheLifetime;
}

export interface HeaderInput {
  sessionId: string;
  requestId: string;
  /** x-opencode-client, e.g. "vscode-opencode-chat-provider/0.1.0". */
  client?: string;
}

/**
 * Warming (core/warming/cacheWarmer.ts) sends a conversation's last body again, asking for the smallest answer the
 * format allows, shortly before its cached prefix expires.
 */
export interface WarmingRules {
  /** The last body with its output cut to the minimum; undefined when that would change what the cache keys on. */
  body(body: Record<string, unknown>, refused: ReadonlySet<string>): Record<string, unknown> | undefined;
  /** How long the provider keeps this body's prefix unread, ms; undefined when warming cannot help. */
  prefixLifetimeMs(body: Record<string, unknown>): number | undefined;
}

/**
 * What a route adjusts per attempt, beyond its body (core/request/sendBody.ts applies these, route-neutral):
 * fields it never drops, refused parameters it keeps below the top level, the catalogue's quirks on its format,
 * whether usage was asked for, and what is worth saying before sending.
 */
export interface AttemptRules {
  /** Fields a refused-parameter rule never removes (the model, the conversation, a field the format requires). */
  required: readonly string[];
  /** Removes refused parameters the format keeps inside another field (Gemini's generationConfig, chat's messages). */
  dropNested?(body: Record<string, unknown>, omitted: ReadonlySet<string>): Record<string, unknown>;
  /** Parameters this format cannot carry beside the effort fields sent (Messages: no `temperature` with a thinking budget). */
  quirks?(effort: Record<string, unknown> | undefined): string[];
  /** False when the model refused the way this format asks for usage (then none will arrive). */
  usageAsked?(refused: ReadonlySet<string>): boolean;
  /** Said in the log before sending (once per model at most). */
  beforeSend?(body: Record<string, unknown>, modelId: string, log: Logger): void;
  warming: WarmingRules;
}

export interface Route {
  readonly id: RouteId;
  /** Appended to the endpoint's base URL (which ends in /v1). */
  readonly path: string;
  /** When the path names the model (Gemini: `/models/{id}:streamGenerateContent?alt=sse`); else `path` is used. */
  pathFor?(modelId: string): string;
  headers(input: HeaderInput): Record<string, string>;
  buildBody(input: BodyInput): Record<string, unknown>;
  readonly attempt: AttemptRules;
  /** `seed`: unique per answer, for the ids of tool calls the wire sent without one (default: random). */
  newReader(seed?: string): StreamReader;
}
