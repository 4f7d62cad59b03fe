/**
 * The leading extension's token estimate as it describes it: characters / 4, plus 10%. Counted over the
 * text a message carries (content, tool-call names and arguments, reasoning); bytes are the message's
 * JSON. Pure, so it is memoized by message object for speed only.
 */
import type { MessageSize } from '../../core/trim/messageSize';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';

export const CHARS_PER_TOKEN = 4;
export const SAFETY_FACTOR = 1.1;

export function charsToTokens(chars: number): number {
  return Math.ceil((chars / CHARS_PER_TOKEN) * SAFETY_FACTOR);
}

export function messageChars(message: WireMessage): number {
  let chars = 0;
  const content = message.content;
  if (typeof content === 'string') chars += content.length;
  else if (Array.isArray(content)) for (const part of content) chars += part.type === 'text' ? part.text.length : 0;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) chars += call.function.name.length + call.function.arguments.length;
    chars += message.reasoning_content?.length ?? 0;
  }
  return chars;
}

const sizes = new WeakMap<WireMessage, MessageSize>();

export function charsSizeOf(message: WireMessage): MessageSize {
  let size = sizes.get(message);
  if (!size) {
    size = { tokens: charsToTokens(messageChars(message)), bytes: Buffer.byteLength(JSON.stringify(message)) };
    sizes.set(message, size);
  }
  return size;
}

const toolSizes = new WeakMap<readonly WireTool[], MessageSize>();

export function charsToolsSize(tools: readonly WireTool[]): MessageSize {
  let size = toolSizes.get(tools);
  if (!size) {
    const json = JSON.stringify(tools);
    size = tools.length ? { tokens: charsToTokens(json.length), bytes: Buffer.byteLength(json) } : { tokens: 0, bytes: 0 };
    toolSizes.set(tools, size);
  }
  return size;
}
