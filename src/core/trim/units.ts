/**
 * How a history splits for trimming:
 *   head   — the leading system message(s) and the first unit (the anchor): always sent;
 *   middle — droppable units, oldest first: one message, or an assistant tool-call message with all of
 *            its tool results, so a call never travels without its results or a result without its call;
 *   tail   — the current turn (the last user message and everything after it): always sent.
 */
import type { WireMessage } from '../wire/wireTypes';

export interface Unit {
  /** Index of the unit's first message in the input. */
  start: number;
  /** One past the unit's last message. */
  end: number;
}

export interface HistoryLayout {
  headEnd: number;
  middle: Unit[];
  tailStart: number;
}

export function layoutHistory(messages: readonly WireMessage[]): HistoryLayout {
  let headEnd = 0;
  while (headEnd < messages.length && messages[headEnd].role === 'system') headEnd++;
  if (headEnd < messages.length) headEnd = unitEnd(messages, headEnd);

  let tailStart = messages.length;
  for (let i = messages.length - 1; i >= headEnd; i--) {
    if (messages[i].role === 'user') {
      tailStart = i;
      break;
    }
  }
  // No user message after the head: the current turn is the last unit, so it is still never dropped.
  if (tailStart === messages.length) tailStart = lastUnitStart(messages, headEnd);

  const middle: Unit[] = [];
  for (let start = headEnd; start < tailStart; ) {
    const end = Math.min(unitEnd(messages, start), tailStart);
    middle.push({ start, end });
    start = end;
  }
  return { headEnd, middle, tailStart };
}

/** A tool-call message owns the tool results that directly follow it. */
function unitEnd(messages: readonly WireMessage[], start: number): number {
  let end = start + 1;
  const first = messages[start];
  if (first.role === 'assistant' && first.tool_calls?.length) {
    while (end < messages.length && messages[end].role === 'tool') end++;
  }
  return end;
}

function lastUnitStart(messages: readonly WireMessage[], from: number): number {
  let last = messages.length;
  for (let start = from; start < messages.length; ) {
    last = start;
    start = unitEnd(messages, start);
  }
  return last;
}
