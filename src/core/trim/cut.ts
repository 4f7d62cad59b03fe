/**
 * Where the cut goes. First how a history splits for trimming:
 *   head   — the leading system message(s) and the first unit (the anchor): always sent;
 *   middle — droppable units, oldest first: one message, or an assistant tool-call message with all of
 *            its tool results, so a call never travels without its results or a result without its call.
 *            Older turns come first, then the oldest rounds of the current turn (a long agent turn is
 *            trimmed like any other history);
 *   prompt — the current user prompt: always sent, even once rounds after it have been dropped;
 *   tail   — the newest `keepRounds` rounds of the current turn (by default all of it): always sent.
 *
 * Then the cut, given the grid. The grid's lines are fixed points of the history: line k ends at the first unit
 * boundary at or past k × grid raw tokens dropped, counted from the oldest droppable unit, so the same history
 * always yields the same lines.
 *
 * Without a last cut (a stateless call): the smallest line that fits, plus extra grid moves. With one:
 *  - Hold: the conversation's last cut (minDrop units) is kept while its payload fits under the ceiling.
 *    The cut never moves back while the history only grows, whatever the calibration does.
 *  - Move: to the first grid line past the last cut whose payload lands at or below the low-water mark
 *    (budget − headroom), plus any extra grid moves the overflow sensor asked for.
 *    In steady state one grid move (cut step + headroom) already lands there, so the jump stays as long.
 */
import type { WireMessage } from '../wire/wireTypes';
import type { MessageSize } from './messageSize';

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

/** Raw tokens and bytes dropped with the oldest j units gone, for j = 0 … units. */
export interface Dropped {
  raw: number[];
  bytes: number[];
  /** Of raw, the native items' tokens (absent: none). */
  native?: number[];
}

export interface CutInputs {
  dropped: Dropped;
  /** Units dropped at each grid line, in order: line 0 drops nothing, the last drops every unit. */
  lines: number[];
  fullRaw: number;
  fullBytes: number;
  /** Units the conversation's last cut dropped; undefined = stateless (the smallest line that fits). */
  minDrop: number | undefined;
  extraGridMoves: number;
  /** Holding the last cut still changes what is sent (a previously pinned prompt is now dropped): then it must land low too. */
  holdIsMove?: boolean;
  /** Of fullRaw, the native items' tokens (not calibrated: calibratedTokens in historyTrim.ts). */
  fullNative?: number;
  fits: (raw: number, bytes: number, native: number) => boolean;
  landsLow: (raw: number, bytes: number, native: number) => boolean;
}

export function droppedSums(units: readonly Unit[], sizes: readonly MessageSize[]): Dropped {
  const dropped = { raw: [0], bytes: [0], native: [0] };
  let raw = 0;
  let bytes = 0;
  let native = 0;
  for (const unit of units) {
    for (let i = unit.start; i < unit.end; i++) {
      raw += sizes[i].tokens;
      bytes += sizes[i].bytes;
      native += sizes[i].nativeTokens ?? 0;
    }
    dropped.raw.push(raw);
    dropped.bytes.push(bytes);
    dropped.native.push(native);
  }
  return dropped;
}

/** Line k is the first unit boundary at or past k × grid raw tokens dropped; the last line drops all. */
export function gridLines(dropped: Dropped, rawGrid: number): number[] {
  const grid = Math.max(1, rawGrid);
  const units = dropped.raw.length - 1;
  const lines = [0];
  let nextLine = 1;
  for (let j = 1; j <= units; j++) {
    if (dropped.raw[j] >= nextLine * grid || j === units) {
      lines.push(j);
      nextLine = Math.floor(dropped.raw[j] / grid) + 1;
    }
  }
  return lines;
}

export function pickCut(inputs: CutInputs): { dropUnits: number; gridMoves: number } {
  const { dropped, lines, fullRaw, fullBytes } = inputs;
  const fullNative = inputs.fullNative ?? 0;
  const keptFits = (j: number, test: CutInputs['fits']): boolean => test(fullRaw - dropped.raw[j], fullBytes - dropped.bytes[j], fullNative - (dropped.native?.[j] ?? 0));
  if (inputs.minDrop === undefined) {
    let k = lines.findIndex((j) => keptFits(j, inputs.fits));
    if (k < 0) k = lines.length - 1;
    k = Math.min(lines.length - 1, k + Math.max(0, inputs.extraGridMoves));
    return { dropUnits: lines[k], gridMoves: k };
  }
  const minDrop = Math.min(inputs.minDrop, dropped.raw.length - 1);
  const holdFits = keptFits(minDrop, inputs.fits) && (!inputs.holdIsMove || keptFits(minDrop, inputs.landsLow));
  if (holdFits && inputs.extraGridMoves <= 0) return { dropUnits: minDrop, gridMoves: gridMovesAt(lines, minDrop) };
  let k = lines.findIndex((j) => j > minDrop && keptFits(j, inputs.landsLow));
  if (k < 0) k = lines.length - 1;
  // A move the overflow sensor forced counts as its first extra grid move.
  k = Math.min(lines.length - 1, k + Math.max(0, inputs.extraGridMoves - (holdFits ? 1 : 0)));
  const dropUnits = Math.max(minDrop, lines[k]);
  return { dropUnits, gridMoves: gridMovesAt(lines, dropUnits) };
}

function gridMovesAt(lines: readonly number[], dropUnits: number): number {
  let gridMoves = 0;
  lines.forEach((j, k) => {
    if (j <= dropUnits) gridMoves = k;
  });
  return gridMoves;
}
