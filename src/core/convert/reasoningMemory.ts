/**
 * DeepSeek-style reasoners answer 400 "reasoning_content must be passed back" when a tool-call turn comes back
 * without the reasoning that produced it — and VS Code's chat history does not always keep thinking parts. So
 * the reasoning of every answer that called tools is remembered, keyed by its tool-call ids, and put back on
 * that assistant message when the history returns without it. Always the same text for the same message, so
 * the bytes sent stay identical from turn to turn. Bounded, and serializable so a restart keeps it.
 *
 * The bound follows the native replay memory's rule (docs/routes.md "How much the native memory holds"): every
 * reasoning a conversation still sends stays remembered. Forgetting one changes its message near the start of the
 * body — every later request misses the prefix cache there, and an interleaved-thinking model refuses the turn.
 * It happened: 500 entries in all, so 500 tool-call answers in other conversations (or one long agent session)
 * evicted a conversation's oldest sent reasoning (chatReasoning.property.test.ts). Now the weight bounds it: a
 * request carries at most its byte ceiling (4.5 bytes per budget token, ~4.5M characters at a 1M window), so 8M
 * characters hold what one request sends plus a margin; sending refreshes an entry, so what is still sent goes last.
 */
import { BoundedMap } from '../util/boundedMap';
import type { WireMessage } from '../wire/wireTypes';

export const REASONING_MEMORY_BOUNDS = {
  /** A backstop: a tool-call turn costs the trim a few hundred bytes, so one request holds far fewer. */
  maxEntries: 20_000,
  /** Characters of all remembered reasoning with its keys: also about what globalState stores at most. */
  maxTotalChars: 8_000_000,
  /** Reasoning longer than this is not remembered (nor restored from disk). */
  maxChars: 64_000,
} as const;

const weigh = (reasoning: string, callId: string): number => reasoning.length + callId.length;

export class ReasoningMemory {
  private readonly byCallId = new BoundedMap<string, string>(REASONING_MEMORY_BOUNDS.maxEntries, { weigh, maxWeight: REASONING_MEMORY_BOUNDS.maxTotalChars });

  remember(callIds: readonly string[], reasoning: string): void {
    if (!reasoning || reasoning.length > REASONING_MEMORY_BOUNDS.maxChars || callIds.length === 0) return;
    this.byCallId.set(callIds[0], reasoning);
  }

  /**
   * The history with remembered reasoning restored; messages that need nothing are passed through as they are.
   * Each request's restored entries become the most recent, so the reasoning a conversation still sends is evicted last.
   */
  restore(messages: WireMessage[]): { messages: WireMessage[]; restored: number } {
    let restored = 0;
    const out = messages.map((message) => {
      if (message.role !== 'assistant' || !message.tool_calls?.length) return message;
      // Read (and refreshed) even when the history kept the thinking: a later history may lose it.
      const reasoning = this.byCallId.get(message.tool_calls[0].id);
      if (!reasoning || message.reasoning_content) return message;
      restored++;
      return { ...message, reasoning_content: reasoning };
    });
    return { messages: restored ? out : messages, restored };
  }

  get size(): number {
    return this.byCallId.size;
  }

  /** Told of every entry kept or let go (core/state/chunkedMap.ts tracks what to write with it). */
  observe(listener: (callId: string, weight: number | undefined) => void): void {
    this.byCallId.onChange = listener;
  }

  /** A kept entry, without refreshing recency (for writing it). */
  peek(callId: string): string | undefined {
    return this.byCallId.peek(callId);
  }

  /** One saved entry (validated by validReasoning) back into the memory, oldest first, under its bounds. */
  restoreEntry(callId: string, text: string): void {
    this.byCallId.set(callId, text);
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries(this.byCallId.entriesInOrder());
  }

  /** From texts validated by core/request/savedRecords.ts (validReasoning), the one place their rules live. */
  static fromJSON(value: Readonly<Record<string, string>>): ReasoningMemory {
    const memory = new ReasoningMemory();
    for (const [id, text] of Object.entries(value)) memory.byCallId.set(id, text);
    return memory;
  }
}
