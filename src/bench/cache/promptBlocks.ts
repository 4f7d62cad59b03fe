/**
 * The cache model's view of a request, built from per-message blocks that are measured once. Sessions
 * re-send the very same message objects on every request, so a block (sha1 of the message JSON and its
 * o200k count) can be keyed by object identity: a request then costs one prefix-chain pass instead of
 * re-serializing and re-hashing megabytes. The blocks are exactly what PrefixCacheModel.measure builds;
 * each policy run still observes them through its own PrefixCacheModel.
 */
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import { PrefixCacheModel, type PromptBlock, type PromptMeasure } from '../../fakeServer/prefixCache';
import type { SessionSizer } from '../sessions/sessionGenerator';

export class PromptBlocks implements SessionSizer {
  /** Used only to measure blocks; its token memo is content-addressed, so sharing it changes no result. */
  private readonly measurer = new PrefixCacheModel();
  private readonly messageBlocks = new WeakMap<WireMessage, PromptBlock>();
  private readonly toolBlocks = new WeakMap<readonly WireTool[], PromptBlock>();
  private readonly jsonBytes = new WeakMap<object, number>();

  messageBlock(message: WireMessage): PromptBlock {
    let block = this.messageBlocks.get(message);
    if (!block) {
      block = this.measurer.measure({ messages: [message] }).blocks[1];
      this.messageBlocks.set(message, block);
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

  /** Same result as PrefixCacheModel.measure({messages, tools}). */
  measureRequest(messages: readonly WireMessage[], tools: readonly WireTool[]): PromptMeasure {
    const blocks = [this.toolsBlock(tools)];
    let promptTokens = blocks[0].tokens;
    for (const message of messages) {
      const block = this.messageBlock(message);
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

  private bytesOf(value: object): number {
    let bytes = this.jsonBytes.get(value);
    if (bytes === undefined) {
      bytes = Buffer.byteLength(JSON.stringify(value));
      this.jsonBytes.set(value, bytes);
    }
    return bytes;
  }

  messageTokens(message: WireMessage): number {
    return this.messageBlock(message).tokens;
  }

  toolsTokens(tools: readonly WireTool[]): number {
    return this.toolsBlock(tools).tokens;
  }
}
