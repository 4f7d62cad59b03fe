/**
 * The neutral chat model shared by the core. The VS Code adapter maps VS Code's message and part classes
 * onto these plain shapes, so everything under src/core runs without VS Code.
 */
import type { RouteId } from './routeId';

export type ChatRole = 'system' | 'user' | 'assistant';

export type ChatPart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; data: Uint8Array }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  /** A tool's result: its text, and the images it returned (an MCP screenshot), in the order given. */
  | { kind: 'toolResult'; callId: string; text: string; images?: ToolImage[] }
  /** Reasoning text the model produced earlier; some providers (DeepSeek) want it passed back. */
  | { kind: 'thinking'; text: string }
  /** A part that carries no content for the model (cache_control, stateful_marker, unknown data). */
  | { kind: 'ignored'; reason: string };

export interface ToolImage {
  mimeType: string;
  data: Uint8Array;
}

export interface ChatMessage {
  role: ChatRole;
  name?: string;
  parts: ChatPart[];
}

export interface ChatTool {
  name: string;
  description: string;
  /** JSON schema of the tool's input; absent means "no parameters". */
  inputSchema?: object;
}

export type ToolMode = 'auto' | 'required';

/** What the streamed answer is made of, in the order it arrived. */
export type StreamEvent =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: object }
  | { kind: 'usage'; usage: NormalizedUsage }
  | { kind: 'finish'; reason: string };

export type UsageShape = 'openai' | 'deepseek' | 'anthropic' | 'responses' | 'gemini' | 'none';

/** One record for every provider's usage shape (see docs/usage.md). */
export interface NormalizedUsage {
  shape: UsageShape;
  /** Tokens that occupy the context window: input + cache read + cache write (never output). */
  contextTokens: number;
  /** Tokens served from the provider's prompt cache (a part of contextTokens). */
  cachedTokens: number;
  /** Tokens written to the cache on this request (Anthropic's cache_creation_input_tokens). */
  cacheWriteTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What we know of a model's limits; undefined means unknown. */
export interface ModelLimits {
  contextWindow?: number;
  maxOutputTokens?: number;
  /**
   * The most prompt tokens the model accepts, when that is less than the window leaves (models.dev `limit.input`:
   * gpt-5.4-mini has a 400,000 window and takes 272,000), or a ceiling learned from the endpoint's refusals.
   */
  inputLimit?: number;
  /** The limits are an estimate: those of this model, the newest of the same family on the endpoint (models/estimate.ts). */
  estimatedFrom?: string;
}

export interface ModelEntry extends ModelLimits {
  id: string;
  name: string;
  toolCalling: boolean;
  imageInput: boolean;
  /** The wire API the endpoint's `/models` states for it (`api`), when it does: the route, without probing. */
  api?: RouteId;
  /** Where the limits came from, for the log. */
  limitSource: 'endpoint' | 'bundled' | 'learned' | 'estimated' | 'fallback' | 'setting' | 'unknown';
}
