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

/** What a message is made of, as far as counting goes. */
export interface MessagePieces {
  texts: readonly string[];
  toolCalls: readonly { name: string; arguments: string }[];
  images: number;
}

/** The per-message rule: overhead + texts + (overhead + name + arguments) per tool call + a flat price per image. */
export function messageTokens(pieces: MessagePieces, countText: CountText): number {
  let total = MESSAGE_OVERHEAD_TOKENS + pieces.images * IMAGE_TOKEN_COST;
  for (const text of pieces.texts) total += countText(text);
  for (const call of pieces.toolCalls) total += TOOL_OVERHEAD_TOKENS + countText(call.name) + countText(call.arguments);
  return total;
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
  }
  return { texts, toolCalls, images };
}

export function wireMessagePieces(message: WireMessage): MessagePieces {
  const texts: string[] = [];
  let images = 0;
  if (typeof message.content === 'string') texts.push(message.content);
  else if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else images++;
    }
  }
  if (message.role !== 'assistant') return { texts, toolCalls: [], images };
  if (message.reasoning_content) texts.push(message.reasoning_content);
  const toolCalls = (message.tool_calls ?? []).map((call) => call.function);
  return { texts, toolCalls, images };
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
