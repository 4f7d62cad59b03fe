/**
 * The last resort when even the smallest safe history does not fit: a pasted log, a huge tool output, or
 * newest rounds of an agent turn that alone exceed the budget. Rather than send a request the endpoint will
 * reject, kept messages lose the middle of their text to a marker that says how much was cut.
 *
 * Passes, all deterministic and none modifying the originals:
 *  1. Cache-stable, for old messages (everything before the newest unit, head excluded): each is cut to a
 *     fixed ~384 estimator tokens that depends on the message alone — never on calibration, the budget or
 *     the rest of the request. Messages cut this way on an earlier request of the conversation
 *     (`stableThrough`) are cut again first, so they are sent byte-identical on every later request.
 *     If that is not enough, more old messages, oldest first, until the request lands at or below budget −
 *     headroom (a move lands low, like a cut move, so the next requests hold instead of cutting again).
 *  2. Exact: the newest unit (often the only message: a paste larger than the budget) keeps as much as the
 *     budget allows — cut by just what is still missing; other messages, then the head, only after it.
 *
 * Every size here is the trim's own (measureText: estimator tokens × calibration, and the bytes the text takes in
 * the JSON body, escapes included), so a cut frees exactly what the excess was counted in. The exact cut is then
 * searched, not guessed from a share of the characters: JSON, code or logs carry their escapes and tokens unevenly,
 * so a proportional keep can land far under (or over) what fits.
 */
import { estimateTextTokens } from '../tokens/estimate';
import { measureMessage, measureText, type SizeMemo } from './messageSize';
import type { WireMessage } from '../wire/wireTypes';
import type { Logger } from '../log';
import type { AssistantLayout } from '../answer/nativeReplay';
import { BYTES_PER_TOKEN, type Budget, type CutGeometry } from './budget';
import { calibratedTokens, type TrimResult } from './historyTrim';
import { firstTruncation } from './trimLog';

export interface Truncation {
  /** Position in the sent messages. */
  index: number;
  role: WireMessage['role'];
  fromTokens: number;
  toTokens: number;
  stable: boolean;
}

/** What must be freed: calibrated tokens and wire bytes. */
export interface Excess {
  tokens: number;
  bytes: number;
}

export interface TruncationScope {
  /** Leading sent messages (system prompt, anchor): cut last, and only exactly. */
  headCount: number;
  /** Sent messages from this position on are the newest unit: never cut to the fixed size. */
  newestFrom: number;
  /** Old messages before this sent position must get the stable cut whatever the excess (sticky). */
  stickyBefore: number;
  /**
   * How much lower than the excess a move should land (ceiling − low-water mark, tokens and bytes): once a
   * message not cut before must be cut, pass 1 goes on until the request is at or below budget − headroom,
   * so the next requests hold instead of cutting one more message each (checkpoint 1). Default: none.
   */
  landLow?: Excess;
  /** The cut already moves on this request (dropped history, a first truncation): any new cut lands low too. */
  moving?: boolean;
}

/** Pass 1 keeps this many estimator tokens of each message: the start and end of a log or a tool result. */
export const STABLE_KEEP_TOKENS = 384;
/** Messages under this many estimator tokens are never cut to the fixed size: it would free too little. */
const MIN_STABLE_TOKENS = STABLE_KEEP_TOKENS * 2;
/** Messages under this many tokens are never cut exactly either. */
const MIN_EXACT_TOKENS = 256;
/** Room for the marker and rounding, so one exact cut is enough. */
const SLACK_TOKENS = 64;
const SLACK_BYTES = 256;

export function truncationMarker(removedChars: number): string {
  return `\n\n[… ${removedChars} characters removed by the OpenCode extension to fit the model's context window …]\n\n`;
}

/** The middle of `text` replaced by the marker, keeping `keepChars` (70% from the start, 30% from the end). */
export function cutText(text: string, keepChars: number): string {
  const keep = Math.max(0, Math.min(text.length, Math.floor(keepChars)));
  const headChars = Math.ceil(keep * 0.7);
  const tailChars = keep - headChars;
  return text.slice(0, headChars) + truncationMarker(text.length - keep) + (tailChars > 0 ? text.slice(-tailChars) : '');
}

/** The cache-stable form of a text: a function of the text alone. Undefined when it is too small to cut. */
export function stableCut(text: string): string | undefined {
  const raw = estimateTextTokens(text);
  if (raw < MIN_STABLE_TOKENS) return undefined;
  return cutText(text, (text.length * STABLE_KEEP_TOKENS) / raw);
}

export function truncateOversized(messages: readonly WireMessage[], excess: Excess, calibration: number, scope: TruncationScope): { messages: WireMessage[]; truncations: Truncation[] } {
  const out = [...messages];
  const cut = new Map<number, Truncation>();
  const remaining = { ...excess };
  const size = (text: string): Size => calibrated(measureText(text), calibration);
  // Each original is measured once (a 20 MB paste costs a pass per measure); cut texts are small.
  const originals = new Map<number, { raw: Size; calibrated: Size }>();
  const originalSize = (i: number): { raw: Size; calibrated: Size } => {
    let known = originals.get(i);
    if (!known) {
      const raw = measureText(messages[i].content as string);
      known = { raw, calibrated: calibrated(raw, calibration) };
      originals.set(i, known);
    }
    return known;
  };
  const replace = (index: number, text: string, stable: boolean): void => {
    const original = messages[index];
    const from = originalSize(index).calibrated;
    const before = out[index] === original ? from : size(out[index].content as string);
    const after = size(text);
    out[index] = { ...original, content: text } as WireMessage;
    remaining.tokens -= before.tokens - after.tokens;
    remaining.bytes -= before.bytes - after.bytes;
    cut.set(index, { index, role: original.role, fromTokens: from.tokens, toTokens: after.tokens, stable });
  };
  const done = (): boolean => remaining.tokens <= 0 && remaining.bytes <= 0;
  const low = scope.landLow ?? { tokens: 0, bytes: 0 };
  const doneLow = (): boolean => remaining.tokens + low.tokens <= 0 && remaining.bytes + low.bytes <= 0;
  const textAt = (i: number): string | undefined => (typeof messages[i].content === 'string' ? (messages[i].content as string) : undefined);

  const old: number[] = [];
  for (let i = scope.headCount; i < Math.min(scope.newestFrom, messages.length); i++) old.push(i);
  let moving = scope.moving ?? false;
  for (const i of old) {
    const text = textAt(i);
    const short = text === undefined ? undefined : stableCut(text);
    if (short === undefined) continue;
    if (i >= scope.stickyBefore) {
      // Holding: the earlier cuts are enough under the ceiling. Moving: land low.
      if (moving ? doneLow() : done()) break;
      moving = true;
    }
    replace(i, short, true);
  }
  for (const i of exactOrder(messages, scope, (j) => cut.has(j), (j) => originalSize(j).raw.tokens)) {
    if (done()) break;
    // Messages already given the stable form are not in this pass, so out[i] is still the original.
    const original = textAt(i) as string;
    const now = originalSize(i).calibrated;
    const allowed = { tokens: now.tokens - Math.max(0, remaining.tokens) - SLACK_TOKENS, bytes: now.bytes - Math.max(0, remaining.bytes) - SLACK_BYTES };
    replace(i, cutText(original, fittingKeep(original, allowed, size, now)), false);
  }
  return { messages: out, truncations: [...cut.values()].sort((a, b) => a.index - b.index) };
}

interface Size {
  tokens: number;
  bytes: number;
}

function calibrated(size: Size, calibration: number): Size {
  return { tokens: Math.ceil(size.tokens * calibration), bytes: size.bytes };
}

/** Search steps of the exact cut; each measures only the candidate (at most what fits), never the whole text. */
const MAX_SEARCH_STEPS = 12;
/** The search stops once the kept part is within this share of the largest keep known not to fit. */
const SEARCH_TOLERANCE = 0.01;

/**
 * The most characters of `text` a cut may keep so that the cut text's size stays within `allowed` (tokens and
 * bytes). A secant search on the measured candidate: guess, measure, scale by how far off it landed; the answer is
 * always a keep that was measured to fit (0, the marker alone, when nothing does).
 */
export function fittingKeep(text: string, allowed: Size, sizeOf: (text: string) => Size, whole = sizeOf(text)): number {
  const fits = (s: Size): boolean => s.tokens <= allowed.tokens && s.bytes <= allowed.bytes;
  const marker = sizeOf(cutText(text, 0));
  if (!fits(marker)) return 0;
  let lo = 0;
  let hi = text.length + 1;
  let guess = Math.floor(text.length * Math.min(1, share(whole, marker, allowed)));
  for (let step = 0; step < MAX_SEARCH_STEPS && hi - lo > Math.max(1, lo * SEARCH_TOLERANCE); step++) {
    if (guess <= lo || guess >= hi) guess = Math.floor((lo + hi) / 2);
    const measured = sizeOf(cutText(text, guess));
    if (fits(measured)) lo = guess;
    else hi = guess;
    // Scale the kept part by how far this candidate is from the allowance (the marker's own size is fixed).
    guess = Math.floor(guess * share(measured, marker, allowed));
  }
  return lo;
}

/** allowed ÷ measured, over the kept part only (the marker is in both), the tighter of tokens and bytes. */
function share(measured: Size, marker: Size, allowed: Size): number {
  const ratio = (a: number, m: number, k: number): number => (m - k > 0 ? Math.max(0, a - k) / (m - k) : Infinity);
  return Math.min(ratio(allowed.tokens, measured.tokens, marker.tokens), ratio(allowed.bytes, measured.bytes, marker.bytes));
}

/** Exact pass order: the newest unit first (it keeps as much as fits), then the largest other messages, head last. */
function exactOrder(messages: readonly WireMessage[], scope: TruncationScope, alreadyStable: (i: number) => boolean, tokens: (i: number) => number): number[] {
  const eligible: number[] = [];
  messages.forEach((message, i) => {
    if (typeof message.content === 'string' && !alreadyStable(i) && tokens(i) >= MIN_EXACT_TOKENS) eligible.push(i);
  });
  const rank = (i: number): number => (i >= scope.newestFrom ? 0 : i >= scope.headCount ? 1 : 2);
  return eligible.sort((a, b) => rank(a) - rank(b) || tokens(b) - tokens(a) || a - b);
}

// The truncation step of the trim path (planTrim), moved here from request/prepareRequest.ts unchanged.

/** Rounding room when a truncation move aims at budget − headroom. */
const LAND_LOW_SLACK_TOKENS = 32;

export interface ShrinkScope {
  budget: Budget;
  geometry: CutGeometry;
  /** Input index before which old messages keep their stable truncation from earlier requests. */
  sticky: number;
  sessionId: string;
  /** The cut already moves on this request: truncation lands low too. */
  moving: boolean;
  /** End of the head (system messages and anchor), from the request's one split (splitHistory). */
  headEnd: number;
  /** The messages' remembered native layouts (truncation shortens text, never native items). */
  layoutOf?: (message: WireMessage) => AssistantLayout | undefined;
}

/**
 * Over budget with nothing left to drop (or messages cut on an earlier request still sent): truncate,
 * say which the first time, and re-measure what is actually sent (calibration learns from that).
 */
export function shrinkOversized(input: readonly WireMessage[], trim: TrimResult, scope: ShrinkScope, ctx: { calibration: number; memo: SizeMemo; log: Logger }): { trim: TrimResult; truncatedThrough: number; exactAt: number } {
  const { budget, geometry } = scope;
  const excess = { tokens: trim.estTokens - geometry.ceiling, bytes: trim.bytes - budget.maxBytes };
  const headEnd = scope.headEnd;
  const newestStart = newestUnitStart(input);
  const position = (inputIndex: number): number => trim.sentIndices.filter((i) => i < inputIndex).length;
  // Aim a little below budget − headroom: per-message rounding of the estimate differs by a few tokens.
  const landLow = { tokens: Math.max(0, geometry.ceiling - (budget.tokens - geometry.headroom)) + LAND_LOW_SLACK_TOKENS, bytes: Number.isFinite(budget.maxBytes) ? Math.round(geometry.headroom * BYTES_PER_TOKEN) : 0 };
  const truncationScope = { headCount: position(headEnd), newestFrom: position(newestStart), stickyBefore: position(scope.sticky), landLow, moving: scope.moving };
  const { messages, truncations } = truncateOversized(trim.messages, excess, ctx.calibration, truncationScope);
  if (truncations.length === 0) return { trim, truncatedThrough: 0, exactAt: 0 };
  let rawTokens = trim.rawTokens;
  let nativeRawTokens = trim.nativeRawTokens;
  let bytes = trim.bytes;
  // Every message cut (stably or exactly) up to here gets the stable cut on later requests.
  let truncatedThrough = 0;
  let exactAt = 0;
  for (const t of truncations) {
    const before = ctx.memo.sizeOf(trim.messages[t.index], scope.layoutOf?.(trim.messages[t.index]));
    const after = measureMessage(messages[t.index], scope.layoutOf?.(messages[t.index]));
    rawTokens -= before.tokens - after.tokens;
    nativeRawTokens -= (before.nativeTokens ?? 0) - (after.nativeTokens ?? 0);
    bytes -= before.bytes - after.bytes;
    const inputIndex = trim.sentIndices[t.index];
    truncatedThrough = Math.max(truncatedThrough, inputIndex + 1);
    if (!t.stable) exactAt = Math.max(exactAt, inputIndex + 1);
    if (firstTruncation(scope.sessionId, inputIndex, String(trim.messages[t.index].content), t)) {
      ctx.log.warn(`[history-trim] Truncated a ${t.role} message (input #${inputIndex}) from ~${t.fromTokens} to ~${t.toTokens} tokens to fit the budget; a marker shows where text was removed.`);
    }
  }
  const estTokens = calibratedTokens(rawTokens, nativeRawTokens, ctx.calibration);
  const overCeiling = estTokens > geometry.ceiling || bytes > budget.maxBytes;
  return { trim: { ...trim, messages, rawTokens, nativeRawTokens, estTokens, bytes, overCeiling }, truncatedThrough, exactAt };
}

/** The newest unit: the last message that is not a tool result (a call and its results travel together). */
function newestUnitStart(messages: readonly WireMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role !== 'tool') return i;
  return 0;
}
