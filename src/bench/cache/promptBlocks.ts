/**
 * The cache model's view of a request, built from per-message blocks that are measured once. Sessions
 * re-send the very same message objects on every request, so a block (sha1 of the message JSON and its
 * o200k count) can be keyed by object identity: a request then costs one prefix-chain pass instead of
 * re-serializing and re-hashing megabytes. The `json` blocks are exactly what PrefixCacheModel.measure
 * builds; each policy run still observes them through its own PrefixCacheModel.
 *
 * The cache model counts each message's JSON (keys, quotes, escapes): 12–15% more tokens than the text a
 * chat template tokenizes, on code and JSON. The `text` count keeps the same block identities (so the same
 * cache hits) with the text-only count, to show what an endpoint counting the template would report.
 */
import { createHash } from 'crypto';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import { PER_MESSAGE_OVERHEAD_TOKENS, PrefixCacheModel, type PromptBlock, type PromptMeasure } from '../../cacheModel/prefixCache';
import { countTextTokens } from '../../cacheModel/valueTokens';
import type { SessionSizer } from '../sessions/sessionGenerator';

export type TokenCount = 'json' | 'text';

export class PromptBlocks {
  /** Used only to measure blocks; its token memo is content-addressed, so sharing it changes no result. */
  private readonly measurer = new PrefixCacheModel();
  private readonly jsonBlocks = new WeakMap<WireMessage, PromptBlock>();
  private readonly textBlocks = new WeakMap<WireMessage, PromptBlock>();
  private readonly toolBlocks = new WeakMap<readonly WireTool[], PromptBlock>();
  private readonly jsonBytes = new WeakMap<object, number>();

  messageBlock(message: WireMessage, count: TokenCount = 'json'): PromptBlock {
    return count === 'json' ? this.jsonBlock(message) : this.textBlock(message);
  }

  private jsonBlock(message: WireMessage): PromptBlock {
    let block = this.jsonBlocks.get(message);
    if (!block) {
      block = this.measurer.measure({ messages: [message] }).blocks[1];
      this.jsonBlocks.set(message, block);
    }
    return block;
  }

  /** Any hash that identifies the message works for the cache; this one skips tokenizing the JSON. */
  private textBlock(message: WireMessage): PromptBlock {
    let block = this.textBlocks.get(message);
    if (!block) {
      const tokens = PER_MESSAGE_OVERHEAD_TOKENS + messageTexts(message).reduce((sum, text) => sum + countTextTokens(text), 0);
      block = { hash: createHash('sha1').update(JSON.stringify(message)).digest('hex'), tokens };
      this.textBlocks.set(message, block);
    }
    return block;
  }

  toolsBlock(tools: readonly WireTool[]): PromptBlock {
    let block = this.toolBlocks.get(tools);
    if (!block) {
      block = this.measurer.measure({ messages: [], tools }).blocks[0];
      this.toolBlocks.set(tools, block);
    }
    return block;
  }

  /** With the `json` count: the same result as PrefixCacheModel.measure({messages, tools}). */
  measureRequest(messages: readonly WireMessage[], tools: readonly WireTool[], count: TokenCount = 'json'): PromptMeasure {
    const blocks = [this.toolsBlock(tools)];
    let promptTokens = blocks[0].tokens;
    for (const message of messages) {
      const block = this.messageBlock(message, count);
      blocks.push(block);
      promptTokens += block.tokens;
    }
    return { blocks, promptTokens };
  }

  /** Request body bytes of these messages and tools (their JSON), for the byte ceiling. */
  requestBytes(messages: readonly WireMessage[], tools: readonly WireTool[]): number {
    let bytes = tools.length ? this.bytesOf(tools) : 0;
    for (const message of messages) bytes += this.bytesOf(message);
    return bytes;
  }

  /** Sizes a session is pre-filled by, in this count. */
  sizer(count: TokenCount): SessionSizer {
    return { messageTokens: (message) => this.messageBlock(message, count).tokens, toolsTokens: (tools) => this.toolsBlock(tools).tokens };
  }

  private bytesOf(value: object): number {
    let bytes = this.jsonBytes.get(value);
    if (bytes === undefined) {
      bytes = Buffer.byteLength(JSON.stringify(value));
      this.jsonBytes.set(value, bytes);
    }
    return bytes;
  }
}

/** The text a chat template tokenizes for a message: its content, tool-call names and arguments, reasoning. */
function messageTexts(message: WireMessage): string[] {
  const texts: string[] = [];
  if (typeof message.content === 'string') texts.push(message.content);
  else if (Array.isArray(message.content)) for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
    if (message.reasoning_content) texts.push(message.reasoning_content);
  }
  return texts;
}
