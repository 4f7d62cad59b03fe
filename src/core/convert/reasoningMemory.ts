/**
 * DeepSeek-style reasoners answer 400 "reasoning_content must be passed back" when a tool-call turn comes back
 * without the reasoning that produced it — and VS Code's chat history does not always keep thinking parts. So
 * the reasoning of every answer that called tools is remembered, keyed by its tool-call ids, and put back on
 * that assistant message when the history returns without it. Always the same text for the same message, so
 * the bytes sent stay identical from turn to turn. Bounded, and serializable so a restart keeps it.
 */
import { BoundedMap } from '../util/boundedMap';
import type { WireMessage } from '../wire/wireTypes';

export const REASONING_MEMORY_BOUNDS = {
  /** Enough for the tool-call turns of several long conversations; older ones are rarely sent again. */
  maxEntries: 500,
  /** Keeps the persisted state small: reasoning longer than this is not remembered. */
  maxChars: 64_000,
} as const;

export class ReasoningMemory {
  private readonly byCallId = new BoundedMap<string, string>(REASONING_MEMORY_BOUNDS.maxEntries);

  remember(callIds: readonly string[], reasoning: string): void {
    if (!reasoning || reasoning.length > REASONING_MEMORY_BOUNDS.maxChars || callIds.length === 0) return;
    this.byCallId.set(callIds[0], reasoning);
  }

  /** The history with remembered reasoning restored; messages that need nothing are passed through as they are. */
  restore(messages: WireMessage[]): { messages: WireMessage[]; restored: number } {
    let restored = 0;
    const out = messages.map((message) => {
      if (message.role !== 'assistant' || !message.tool_calls?.length || message.reasoning_content) return message;
      const reasoning = this.byCallId.peek(message.tool_calls[0].id);
      if (!reasoning) return message;
      restored++;
      return { ...message, reasoning_content: reasoning };
    });
    return { messages: restored ? out : messages, restored };
  }

  get size(): number {
    return this.byCallId.size;
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries(this.byCallId.entriesInOrder());
  }

  /** From texts validated by core/state/records.ts (validReasoning), the one place their rules live. */
  static fromJSON(value: Readonly<Record<string, string>>): ReasoningMemory {
    const memory = new ReasoningMemory();
    for (const [id, text] of Object.entries(value)) memory.byCallId.set(id, text);
    return memory;
  }
}
