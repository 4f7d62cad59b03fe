/**
 * How a history splits for trimming:
 *   head   — the leading system message(s) and the first unit (the anchor): always sent;
 *   middle — droppable units, oldest first: one message, or an assistant tool-call message with all of
 *            its tool results, so a call never travels without its results or a result without its call.
 *            Older turns come first, then the oldest rounds of the current turn (a long agent turn is
 *            trimmed like any other history);
 *   prompt — the current user prompt: always sent, even once rounds after it have been dropped;
 *   tail   — the newest `keepRounds` rounds of the current turn (by default all of it): always sent.
 */
import type { WireMessage } from '../wire/wireTypes';

/** Newest rounds of the current turn the extension never drops (the setting's default; docs/history-trim.md says why 2). */
export const DEFAULT_KEEP_RECENT_ROUNDS = 2;

export interface Unit {
  /** Index of the unit's first message in the input. */
  start: number;
  /** One past the unit's last message. */
  end: number;
}

export interface HistoryParts {
  headEnd: number;
  middle: Unit[];
  /** Index of the current user prompt (always sent), or -1 when there is none after the head. */
  prompt: number;
  currentTurnStart: number;
}

export function splitHistory(messages: readonly WireMessage[], keepRounds = Infinity): HistoryParts {
  let headEnd = 0;
  while (headEnd < messages.length && messages[headEnd].role === 'system') headEnd++;
  if (headEnd < messages.length) headEnd = unitEnd(messages, headEnd);

  let prompt = -1;
  for (let i = messages.length - 1; i >= headEnd; i--) {
    if (messages[i].role === 'user') {
      prompt = i;
      break;
    }
  }
  const roundsFrom = prompt >= 0 ? prompt + 1 : headEnd;
  const rounds = unitsBetween(messages, roundsFrom, messages.length);
  const keep = keptRoundCount(rounds.length, keepRounds, prompt >= 0);
  const dropRounds = rounds.length - keep;
  // No droppable round: the prompt simply starts the tail (the current turn travels whole).
  const currentTurnStart = dropRounds === 0 && prompt >= 0 ? prompt : keep === 0 ? messages.length : rounds[dropRounds].start;
  const middle = [...(prompt >= 0 ? unitsBetween(messages, headEnd, prompt) : []), ...rounds.slice(0, dropRounds)];
  return { headEnd, middle, prompt, currentTurnStart };
}

/**
 * How many of the current turn's rounds are never dropped. Infinity (the default of splitHistory): the
 * whole current turn. With no user prompt after the head, the newest unit stands in for it (at least one
 * is kept; with the default, exactly one, as before rounds could be dropped).
 */
function keptRoundCount(rounds: number, keepRounds: number, hasPrompt: boolean): number {
  const wanted = hasPrompt ? keepRounds : Number.isFinite(keepRounds) ? Math.max(1, keepRounds) : 1;
  return Math.min(rounds, Math.max(0, Math.floor(wanted)));
}

/** Input indices sent when the oldest `dropUnits` middle units are dropped: head, prompt, the rest. */
export function keptIndices(count: number, parts: HistoryParts, dropUnits: number): number[] {
  const firstKept = firstKeptIndex(parts, dropUnits);
  const indices: number[] = [];
  for (let i = 0; i < parts.headEnd; i++) indices.push(i);
  if (parts.prompt >= 0 && parts.prompt < firstKept) indices.push(parts.prompt);
  for (let i = firstKept; i < count; i++) indices.push(i);
  return indices;
}

/** The first message kept after the head when `dropUnits` middle units are gone. */
export function firstKeptIndex(parts: HistoryParts, dropUnits: number): number {
  // Nothing dropped: everything after the head is kept. Named after the prompt instead (the history before it is
  // empty, or only rounds after it are droppable), the next turn's hold would drop that prompt: VS Code's agent
  // opens with its environment info (the anchor) and the prompt right after it.
  if (dropUnits === 0) return parts.headEnd;
  const first = dropUnits < parts.middle.length ? parts.middle[dropUnits].start : parts.currentTurnStart;
  // The prompt is always sent, so a cut just before it and one just after it send the same messages. Both are the cut
  // before it: once a newer prompt makes this one old, the hold keeps it, and the next payload starts with this one.
  return parts.prompt >= 0 && (first === parts.prompt || first === parts.prompt + 1) ? parts.prompt : first;
}

function unitsBetween(messages: readonly WireMessage[], from: number, to: number): Unit[] {
  const units: Unit[] = [];
  for (let start = from; start < to; ) {
    const end = Math.min(unitEnd(messages, start), to);
    units.push({ start, end });
    start = end;
  }
  return units;
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
