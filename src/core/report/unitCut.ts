/**
 * Shared plumbing of the unit-dropping policies the report replays (minimal fit) and the benchmark compares
 * with: a history measured unit by unit (same head / middle / tail split as the extension, so only the cut
 * rule differs), and the messages that remain once the oldest `dropUnits` middle units are gone.
 */
import type { MessageSize } from '../trim/messageSize';
import type { WireMessage } from '../wire/wireTypes';
import { DEFAULT_KEEP_RECENT_ROUNDS, keptIndices, splitHistory, type HistoryParts } from '../trim/cut';

export interface PolicyDecision {
  /** Indices into the request's messages that are sent, ascending. */
  sentIndices: number[];
  /** The policy's own token estimate of what it sends (tools included), in its own units. */
  estimate: number;
  /** What is sent when it is not the messages at sentIndices as they came (ours: pruned results as placeholders). */
  messages?: WireMessage[];
}

export interface SizedHistory {
  parts: HistoryParts;
  /** Estimated tokens and bytes of each middle unit, oldest first. */
  units: MessageSize[];
  total: MessageSize;
  messageCount: number;
}

export function sizeHistory(messages: readonly WireMessage[], tools: MessageSize, sizeOf: (m: WireMessage) => MessageSize): SizedHistory {
  const sizes = messages.map(sizeOf);
  // The extension's units: older turns, then the oldest rounds of the current turn (the newest rounds and the prompt stay).
  const parts = splitHistory(messages, DEFAULT_KEEP_RECENT_ROUNDS);
  const total = { tokens: tools.tokens, bytes: tools.bytes };
  for (const size of sizes) {
    total.tokens += size.tokens;
    total.bytes += size.bytes;
  }
  const units = parts.middle.map((unit) => {
    const size = { tokens: 0, bytes: 0 };
    for (let i = unit.start; i < unit.end; i++) {
      size.tokens += sizes[i].tokens;
      size.bytes += sizes[i].bytes;
    }
    return size;
  });
  return { parts, units, total, messageCount: messages.length };
}

/** Head, the current prompt, then everything from the first kept middle unit to the end (the tail is never dropped). */
export function decisionAfterDropping(history: SizedHistory, dropUnits: number): PolicyDecision {
  const { parts, units } = history;
  const sentIndices = keptIndices(history.messageCount, parts, dropUnits);
  let estimate = history.total.tokens;
  for (let k = 0; k < dropUnits; k++) estimate -= units[k].tokens;
  return { sentIndices, estimate };
}
