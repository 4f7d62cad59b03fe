/**
 * Public types of the fake OpenCode server. Kept apart from the server so the pure modules (prefix cache,
 * usage shapes, replies, faults) can share them without importing any HTTP code.
 */

export type UsageShapeName = 'openai' | 'deepseek' | 'anthropic' | 'anthropic-via-chat';

export interface FakeModel {
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  /**
   * The most prompt tokens it takes, when fewer than its window: a larger prompt gets OpenAI's refusal that names no
   * number ("Your input exceeds the context window of this model…", code context_length_exceeded; errors.ts).
   */
  inputLimit?: number;
  toolCalling?: boolean;
  imageInput?: boolean;
  /** The longest image side accepted, in pixels (default 2,000); larger images get a 400 (imageChecks.ts). */
  maxImageSide?: number;
  /** The most base64 bytes one image may have (default 5 MB). */
  maxImageBytes?: number;
  usageShape?: UsageShapeName;
  /** The one wire format OpenCode serves this model on (default chat); any other route gets the 401 ModelError. */
  api?: FakeRoute;
  /** Responses / Messages: the model reasons (reasoning items with encrypted content, signed thinking). */
  reasons?: boolean;
  /**
   * Chat: what the endpoint does with `reasoning_content` on assistant messages (reasoningChecks.ts): `required` on
   * every tool-call turn (DeepSeek's 400), `refused` (Cerebras' 400 naming it) or `refused-422` (a validator's 422).
   * Default: accepted, not required.
   */
  reasoningContent?: 'required' | 'refused' | 'refused-422';
}

export type FakeRoute = 'chat' | 'responses' | 'messages' | 'gemini';

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** Raw JSON text; may be invalid on purpose. */
  arguments: string;
}

export interface ScriptedReply {
  text?: string;
  /** Sent as `delta.reasoning_content`. */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Characters per text/argument chunk, default 8 (so tool-call arguments always span several chunks). */
  chunkSize?: number;
  delayMsBetweenChunks?: number;
  finishReason?: string;
}

export const FAULT_NAMES = [
  'status-429',
  'status-500',
  'status-502',
  'status-503',
  'status-401',
  'reset-before-first-byte',
  'cut-after-text',
  'cut-in-tool-call',
  'stall',
  'empty-deltas',
  'error-after-text',
  'malformed-chunk',
  'no-done',
  'reasoning-only',
  'invalid-tool-json',
  'think-tags',
  'empty-stream',
  'context-length-400',
  'missing-session-400',
  'unsupported-param-400',
  'hold-after-done',
  'reset-after-done',
  'hold-after-usage',
  'reset-after-usage',
  'usage-then-cut',
  'split-usage',
  'json-completion',
  'json-error-200',
  'html-502',
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];

/** A fault plus its parameters, e.g. `{ name: 'status-429', seconds: 3 }` or `{ name: 'stall', ms: 500 }`. */
export interface FaultSpec {
  name: FaultName;
  [param: string]: unknown;
}

export interface FakeServerOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  /** Loopback only: 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  models?: FakeModel[];
  /** Default 'openai'. */
  usageShape?: UsageShapeName;
  /** When set, a Bearer token other than this one gets 401. */
  requireKey?: string;
  /** When true, chat requests without `x-opencode-session` get OpenCode Go's 400 MissingSessionID. Default off. */
  requireSession?: boolean;
  /** Pause before each chat reply starts. */
  replyDelayMs?: number;
  /** Approximate length of the default reply, in o200k tokens. Default 40. */
  replyTokens?: number;
  /**
   * Model cache lifetimes on this clock (ms): a prefix cached at t is gone at t + lifetime unless read. Chat,
   * Responses and Gemini: `prompt_cache_retention: "24h"` keeps it 24 h, else `inMemoryCacheMs`; Messages: 5 min, or
   * an hour for `ttl: "1h"` breakpoints. Absent (default): nothing expires.
   */
  cacheClock?: () => number;
  /** The in-memory lifetime with a cacheClock; default 5 minutes (OpenAI clears idle prefixes after 5–10). */
  inMemoryCacheMs?: number;
  /** Append OpenCode's cost frame after every stream (default true); false models an endpoint that sends none. */
  costFrames?: boolean;
  /** Called once per handled request with a short human-readable line (the CLI logs it to stderr). */
  onRequestLog?: (line: string) => void;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary client JSON
  receivedAt: number;
  /** The client closed the connection before the reply ended. */
  closedEarly: boolean;
}

export interface FakeServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  port: number;
  requests: RecordedRequest[];
  enqueueReply(reply: ScriptedReply): void;
  enqueueFault(fault: FaultSpec): void;
  /** Clears queued replies and faults, recorded requests and the prompt cache. */
  reset(): void;
  close(): Promise<void>;
  /** Resolves once request `index`'s response has closed (finished, aborted by the client, or destroyed). */
  whenRequestClosed(index: number): Promise<void>;
}
