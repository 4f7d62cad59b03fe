/**
 * The one per-message rule and the one tool-size rule. The exact count (provideTokenCount, with o200k) and
 * the trim's estimate (with the single-pass estimator) both apply these to their own text counter, so the
 * two can differ only by how they count text, never by what they count.
 */
import type { ChatMessage } from '../types';
import type { WireMessage, WireTool } from '../wire/wireTypes';

/**
 * OpenAI's price of one high-detail 1024×1024 image (85 base + 4 tiles × 170). We do not decode image sizes
 * here; a screenshot downscaled to about that size is the common case, and Anthropic's (w·h)/750 rule gives
 * the same order (~1,400) for it.
 */
export const IMAGE_TOKEN_COST = 765;
/** Chat formatting wraps every message in role and separator tokens (<|start|>role<|message|>…<|end|>). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** A tool definition, or a tool call, is wrapped in a function/type/arguments scaffold around its text. */
export const TOOL_OVERHEAD_TOKENS = 8;

export type CountText = (text: string) => number;

/**
 * Characters per token of an **opaque payload** (encrypted reasoning, a signature, redacted thinking): not text,
 * so not run through the text counter. ⌈characters ÷ 4⌉, an upper bound for what providers are reported to charge
 * for them (docs/routes.md, "What the trim counts of native items").
 */
export const OPAQUE_CHARS_PER_TOKEN = 4;

/** The native items remembered for a message (NativeReplayMemory), as far as counting goes. */
export interface NativePieces {
  /** Readable thought text inside the items (Anthropic `thinking`, Responses summary `text`). */
  thoughts: readonly string[];
  /** Every other string value: encrypted content, signatures, redacted data, item types and ids. */
  opaque: readonly string[];
}

/** What a message is made of, as far as counting goes. */
export interface MessagePieces {
  texts: readonly string[];
  toolCalls: readonly { name: string; arguments: string }[];
  images: number;
  /** The message's own reasoning text (`reasoning_content`). */
  reasoning?: string;
  /** Its remembered native items, on whatever route they were recorded. */
  native?: NativePieces;
}

export const opaqueTokens = (payload: string): number => Math.ceil(payload.length / OPAQUE_CHARS_PER_TOKEN);

/**
 * The per-message rule: overhead + texts + (overhead + name + arguments) per tool call + a flat price per image
 * + the thought + the native items' opaque payloads. The thought is the larger of the reasoning text and the
 * native items' readable text: both are the same thinking, and no route sends both (chat sends the reasoning,
 * Responses and Messages the items), so the larger covers every route with one number.
 */
export function messageTokens(pieces: MessagePieces, countText: CountText): number {
  return messageTokenSplit(pieces, countText).tokens;
}

/**
 * The same rule, also saying how many of the tokens the native items add over the message alone (their opaque
 * payloads and any thought text beyond the reasoning): calibration learns from the rest (accountUsage.ts).
 */
export function messageTokenSplit(pieces: MessagePieces, countText: CountText): { tokens: number; nativeTokens: number } {
  let total = MESSAGE_OVERHEAD_TOKENS + pieces.images * IMAGE_TOKEN_COST;
  for (const text of pieces.texts) total += countText(text);
  for (const call of pieces.toolCalls) total += TOOL_OVERHEAD_TOKENS + countText(call.name) + countText(call.arguments);
  const reasoning = pieces.reasoning ? countText(pieces.reasoning) : 0;
  let thoughts = 0;
  for (const text of pieces.native?.thoughts ?? []) thoughts += countText(text);
  let nativeTokens = Math.max(0, thoughts - reasoning);
  for (const payload of pieces.native?.opaque ?? []) nativeTokens += opaqueTokens(payload);
  return { tokens: total + reasoning + nativeTokens, nativeTokens };
}

/** Keys whose string values are thought text a model reads, not an opaque payload. */
const THOUGHT_KEYS = new Set(['thinking', 'text']);

/**
 * The strings of native items, split into thought text and opaque payloads. Route-blind on purpose (any item
 * shape, any route), so a layout counts the same wherever it came from and wherever it goes.
 */
export function nativePieces(items: readonly unknown[]): NativePieces {
  const thoughts: string[] = [];
  const opaque: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (typeof value === 'string') (THOUGHT_KEYS.has(key) ? thoughts : opaque).push(value);
    else if (Array.isArray(value)) for (const item of value) walk(item, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  for (const item of items) walk(item, '');
  return { thoughts, opaque };
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value); // cyclic or BigInt input: still count something proportional
  }
}

export function chatMessagePieces(message: ChatMessage): MessagePieces {
  const texts: string[] = message.name ? [message.name] : [];
  const toolCalls: { name: string; arguments: string }[] = [];
  let images = 0;
  for (const part of message.parts) {
    if (part.kind === 'text' || part.kind === 'toolResult' || part.kind === 'thinking') texts.push(part.text);
    else if (part.kind === 'toolCall') toolCalls.push({ name: part.name, arguments: jsonOf(part.input) });
    else if (part.kind === 'image') images++;
    if (part.kind === 'toolResult') images += part.images?.length ?? 0;
  }
  return { texts, toolCalls, images };
}

/** A wire message's pieces, with the native items remembered for it (none: the message alone). */
export function wireMessagePieces(message: WireMessage, nativeItems: readonly unknown[] = []): MessagePieces {
  const texts: string[] = [];
  let images = 0;
  if (typeof message.content === 'string') texts.push(message.content);
  else if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else images++;
    }
  }
  if (message.role === 'tool') images += message.images?.length ?? 0;
  if (message.role !== 'assistant') return { texts, toolCalls: [], images };
  const toolCalls = (message.tool_calls ?? []).map((call) => call.function);
  const native = nativeItems.length > 0 ? nativePieces(nativeItems) : undefined;
  return { texts, toolCalls, images, ...(message.reasoning_content ? { reasoning: message.reasoning_content } : {}), ...(native ? { native } : {}) };
}

/** What a tool definition is made of, as far as counting goes. */
export interface ToolPieces {
  name: string;
  description: string;
  /** The input schema, as sent. */
  schema: unknown;
}

/** The tool-size rule: per tool, overhead + name + description + the schema's JSON. */
export function toolsTokens(tools: readonly ToolPieces[], countText: CountText): number {
  let total = 0;
  for (const tool of tools) total += TOOL_OVERHEAD_TOKENS + countText(tool.name) + countText(tool.description) + countText(jsonOf(tool.schema));
  return total;
}

export const wireToolPieces = (tool: WireTool): ToolPieces => ({ name: tool.function.name, description: tool.function.description, schema: tool.function.parameters });
