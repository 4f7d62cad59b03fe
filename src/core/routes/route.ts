/**
 * One route = one wire format of the gateway (Chat Completions, Responses, Anthropic Messages, Gemini).
 * Everything before "build the body" (convert, repair, trim) and after "read the stream" (accounting, retry)
 * is route-neutral; a route only knows its path, its headers, its body and its stream. Adding a route is one
 * more folder under src/core/routes and one row in registry/registry.ts. See docs/routes.md.
 */
import type { AnswerResult } from '../answer/assembler';
import type { Logger } from '../log';
import type { StreamEvent } from '../types';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import type { AssistantLayout, NativeReplay } from './nativeReplay';
import type { CacheLifetime } from './cacheLifetime';

export type RouteId = 'chat' | 'responses' | 'messages' | 'gemini';
export const ROUTE_IDS: readonly RouteId[] = ['chat', 'responses', 'messages', 'gemini'];

export function isRouteId(value: unknown): value is RouteId {
  return typeof value === 'string' && (ROUTE_IDS as readonly string[]).includes(value);
}

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
  /** The cache lifetime the settings ask for (cacheLifetime.ts); absent: the provider's default lifetime. */
  cacheLifetime?: CacheLifetime;
}

export interface HeaderInput {
  sessionId: string;
  requestId: string;
  /** x-opencode-client, e.g. "vscode-opencode-chat-provider/0.1.0". */
  client?: string;
}

/** What one SSE event meant, beyond its StreamEvents. */
export interface ReadResult {
  events: StreamEvent[];
  /** The stream carried an error (Responses `error`/`response.failed`, Messages `error`, chat `{error}`). */
  error?: Record<string, unknown>;
  /** The payload was not JSON (the caller skips and logs it, as on the chat route). */
  malformed?: string;
  /** Chat: the chunk had fields of the wrong type, dropped (chunkShape.ts); the raw payload, for the log. */
  wrongShape?: string;
  /** The answer's end marker ([DONE], response.completed/incomplete, message_stop): after it only the cost frame is read. */
  end?: boolean;
  /** Anything but a keep-alive or a cost frame arrived: the idle timeout starts again (core/answer/assembler.ts). */
  progress?: boolean;
}

export interface StreamReader {
  /** One SSE event: its data (raw text or already-parsed JSON) and its `event:` name when there was one. */
  push(data: unknown, eventName?: string): ReadResult;
  /**
   * A 200 JSON body instead of a stream: the error it carries (any route), or the answer when the route's format
   * has a whole-answer body it reads (chat); undefined when it is neither.
   */
  pushBody(body: Record<string, unknown>): ReadResult | undefined;
  /** The stream ended: flush what is held back. */
  finish(): StreamEvent[];
  /** The stream broke after content was shown: flush held-back text only; unfinished calls are dropped. */
  abandon(): StreamEvent[];
  /** What must be kept to pass this answer back verbatim later (undefined when nothing native arrived). */
  layout(): AssistantLayout | undefined;
  /** What the answer was: usage, cost, finish reason, dropped calls, skipped payloads (core/answer/assembler.ts). */
  result(): AnswerResult;
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
