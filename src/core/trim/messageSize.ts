/**
 * Estimated tokens and wire bytes of one message, memoized by a cheap fingerprint so a request costs
 * work only for messages not seen before (VS Code hands us fresh objects every turn, so identity
 * cannot be the key, and hashing megabytes of content per request would defeat the purpose). The
 * fingerprint reads the role, ids, lengths and the first/last characters of every text field; two
 * different messages sharing all of those would only share a size estimate, never content.
 */
import type { WireMessage } from '../wire/wireTypes';
import { estimateTextTokens } from '../tokens/estimate';
// The same per-message and per-part constants as provideTokenCount, so the two counts agree.
import { IMAGE_TOKEN_COST, MESSAGE_OVERHEAD_TOKENS, TOOL_OVERHEAD_TOKENS } from '../tokens/tokenCounter';
const SAMPLE = 48;

export interface MessageSize {
  tokens: number;
  bytes: number;
}

export class SizeMemo {
  private readonly sizes = new Map<string, MessageSize>();
  hits = 0;
  misses = 0;

  constructor(private readonly capacity = 50_000) {}

  sizeOf(message: WireMessage): MessageSize {
    const key = fingerprint(message);
    const known = this.sizes.get(key);
    if (known) {
      this.hits++;
      return known;
    }
    this.misses++;
    const size = measureMessage(message);
    if (this.sizes.size >= this.capacity) this.sizes.delete(this.sizes.keys().next().value as string);
    this.sizes.set(key, size);
    return size;
  }

  get size(): number {
    return this.sizes.size;
  }
}

export function measureMessage(message: WireMessage): MessageSize {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  let imageChars = 0;
  const content = message.content;
  if (typeof content === 'string') tokens += estimateTextTokens(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === 'text') tokens += estimateTextTokens(part.text);
      else {
        tokens += IMAGE_TOKEN_COST;
        imageChars += part.image_url.url.length;
      }
    }
  }
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      tokens += TOOL_OVERHEAD_TOKENS + estimateTextTokens(call.function.name) + estimateTextTokens(call.function.arguments);
    }
    if (message.reasoning_content) tokens += estimateTextTokens(message.reasoning_content);
  }
  // Image data is not text: it is billed per image, and it would dwarf the byte ceiling.
  const bytes = Buffer.byteLength(JSON.stringify(message)) - imageChars;
  return { tokens, bytes };
}

function fingerprint(message: WireMessage): string {
  let key = message.role;
  if (message.role === 'tool') key += `|${message.tool_call_id}`;
  key += `|${textKey(message.content)}`;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) key += `|${call.id}:${call.function.name}:${textKey(call.function.arguments)}`;
    if (message.reasoning_content) key += `|r:${textKey(message.reasoning_content)}`;
  }
  return key;
}

function textKey(content: WireMessage['content']): string {
  if (content === null) return '-';
  if (typeof content === 'string') return sample(content);
  let key = `[${content.length}`;
  for (const part of content) key += part.type === 'text' ? `,t${sample(part.text)}` : `,i${sample(part.image_url.url)}`;
  return `${key}]`;
}

function sample(text: string): string {
  if (text.length <= SAMPLE * 2) return `${text.length}:${text}`;
  return `${text.length}:${text.slice(0, SAMPLE)}…${text.slice(-SAMPLE)}`;
}
