/**
 * historyTrim: decides which messages of a request are sent. Pure and deterministic: the same history,
 * settings, grid and calibration give the same cut, so a restart lands on the same cut and the provider's
 * prefix cache stays warm. Messages that stay are the very objects passed in, never rewritten.
 */
import type { AssistantLayout } from '../answer/nativeReplay';
import type { WireMessage } from '../wire/wireTypes';
import { BYTES_PER_TOKEN, type Budget, type CutGeometry } from './budget';
import { type MessageSize, type SizeMemo, nativeSizesOf, type NativeSizes } from './messageSize';
import { DEFAULT_PRUNE_PROTECT_TOKENS, type HistoryTrimSettings, type PruneSettings } from '../config/settings';
import { applyPrunes, choosePrunes, MAX_PRUNED_RESULTS, prunesStillSent } from './pruneResults';
import { droppedSums, gridLines, pickCut, type CutInputs, firstKeptIndex, keptIndices, splitHistory, type HistoryParts } from './cut';

export interface TrimOptions {
  budget: Budget;
  geometry: CutGeometry;
  /** API tokens per estimated token for this model (1 = uncalibrated). */
  calibration: number;
  /** The grid in raw estimator units (frozen per conversation once it has cut; see gridFor). Default: grid ÷ calibration. */
  rawGrid?: number;
  /** Extra grid moves to cut after an overflow was sensed on this conversation. */
  extraGridMoves: number;
  /**
   * The conversation's last cut (input index of the first message kept after the head; 0 = none yet). Given,
   * the trim is stateful: the cut holds while it fits, never moves back, and a move lands at or below
   * budget − headroom. Omitted: the smallest grid line that fits (a pure function of the history).
   */
  minFirstKept?: number;
  /** Messages the last request dropped (with minFirstKept): a hold that drops a different number is a move. */
  lastRemoved?: number;
  /** Holding the last cut changes the prefix anyway (results newly pruned): then the hold must land low too. */
  holdMustLandLow?: boolean;
  /** Newest rounds of the current turn that are always sent (default: the whole current turn). */
  keepRounds?: number;
  /** The history split with keepRounds, when the caller already split it (computed once per request). */
  parts?: HistoryParts;
  memo: SizeMemo;
  /** A message's remembered native layout, on any route (its size is part of the message's): layoutLookup. */
  layoutOf?: (message: WireMessage) => AssistantLayout | undefined;
  /** Size of the tools block, which is sent with every request. */
  tools: MessageSize;
}

export interface TrimBreakdown {
  system: number;
  anchor: number;
  tools: number;
  history: number;
  currentTurn: number;
}

export interface TrimResult {
  messages: WireMessage[];
  sentIndices: number[];
  /** Input messages not sent. */
  removed: number;
  /** Input index of the first message kept after the head (the cut). */
  firstKept: number;
  /** Grid moves cut (0 when nothing was dropped). */
  gridMoves: number;
  /** Calibrated token estimate of what is sent, tools included. */
  estTokens: number;
  rawTokens: number;
  /** Of rawTokens, what the sent messages' native items add (calibration learns from rawTokens − this). */
  nativeRawTokens: number;
  /**
   * What the remembered native items add to each input message that has them (sent or cut), by first call id:
   * recordings and the report's replays add it (core/replay/messageSize.ts). Empty without a layout lookup.
   */
  native: NativeSizes;
  bytes: number;
  overCeiling: boolean;
  breakdown: TrimBreakdown;
}

/**
 * What calibration learns from: the raw estimate of what was sent without the native items' share. The
 * endpoint may bill those items at any rate from nothing (earlier turns' reasoning, a layout of another route)
 * to about what the trim counts; learning them into the factor would scale plain text down by their share, and
 * a later burst of text would then be under-estimated. Left out, the factor describes text (an endpoint that
 * bills the items only raises it: an over-estimate, the safe side), and the items stay a fixed count.
 */
/**
 * The calibrated estimate: the factor scales the text part; the native items keep their own count (the factor is
 * learned from text, calibrationRawTokens, so scaling them too would count an endpoint's billing of them twice).
 */
export function calibratedTokens(raw: number, native: number, calibration: number): number {
  return Math.ceil((raw - native) * calibration + native);
}

export function calibrationRawTokens(trim: Pick<TrimResult, 'rawTokens' | 'nativeRawTokens'>): number {
  return trim.rawTokens - trim.nativeRawTokens;
}

export function trimHistory(messages: readonly WireMessage[], options: TrimOptions): TrimResult {
  const sizes = messages.map((message) => options.memo.sizeOf(message, options.layoutOf?.(message)));
  const parts = options.parts ?? splitHistory(messages, options.keepRounds);
  const fullRaw = sum(sizes, 'tokens') + options.tools.tokens;
  const fullBytes = sum(sizes, 'bytes') + options.tools.bytes;
  const fullNative = sizes.reduce((total, size) => total + (size.nativeTokens ?? 0), 0);
  const { budget, geometry, calibration } = options;
  const fitsUnder = (tokens: number, maxBytes: number) => (raw: number, bytes: number, native: number): boolean =>
    calibratedTokens(raw, native, calibration) <= tokens && bytes <= maxBytes;
  const fits = fitsUnder(geometry.ceiling, budget.maxBytes);
  const budgeted = Number.isFinite(budget.tokens);
  let cut = { dropUnits: 0, gridMoves: 0 };
  if (budgeted) {
    const dropped = droppedSums(parts.middle, sizes);
    const minDrop = options.minFirstKept === undefined ? undefined : parts.middle.filter((unit) => unit.start < (options.minFirstKept ?? 0)).length;
    const inputs: CutInputs = {
      dropped,
      lines: gridLines(dropped, options.rawGrid ?? geometry.grid / (calibration > 0 ? calibration : 1)),
      fullRaw,
      fullBytes,
      fullNative,
      minDrop,
      holdIsMove: options.holdMustLandLow === true || (minDrop !== undefined && options.lastRemoved !== undefined && messages.length - keptIndices(messages.length, parts, minDrop).length !== options.lastRemoved),
      extraGridMoves: options.extraGridMoves,
      fits,
      landsLow: fitsUnder(budget.tokens - geometry.headroom, lowWaterBytes(budget.maxBytes, geometry.headroom)),
    };
    cut = pickCut(inputs);
  }
  const sentIndices = keptIndices(messages.length, parts, cut.dropUnits);
  const rawTokens = sentIndices.reduce((total, i) => total + sizes[i].tokens, options.tools.tokens);
  const bytes = sentIndices.reduce((total, i) => total + sizes[i].bytes, options.tools.bytes);
  const nativeRawTokens = sentIndices.reduce((total, i) => total + (sizes[i].nativeTokens ?? 0), 0);
  return {
    messages: sentIndices.map((i) => messages[i]),
    sentIndices,
    removed: messages.length - sentIndices.length,
    firstKept: firstKeptIndex(parts, cut.dropUnits),
    gridMoves: cut.gridMoves,
    estTokens: calibratedTokens(rawTokens, nativeRawTokens, calibration),
    rawTokens,
    nativeRawTokens,
    native: options.layoutOf ? nativeSizesOf(messages, sizes) : {},
    bytes,
    overCeiling: budgeted && !fits(rawTokens, bytes, nativeRawTokens),
    breakdown: breakdownOf(messages, sizes, parts, sentIndices, options),
  };
}

/** The byte ceiling less the headroom at 4.5 bytes per token, like the token low-water mark. */
function lowWaterBytes(maxBytes: number, headroom: number): number {
  return Number.isFinite(maxBytes) ? Math.max(0, maxBytes - Math.round(headroom * BYTES_PER_TOKEN)) : maxBytes;
}

function breakdownOf(
  messages: readonly WireMessage[],
  sizes: readonly MessageSize[],
  parts: HistoryParts,
  sentIndices: readonly number[],
  options: TrimOptions,
): TrimBreakdown {
  const cal = (size: MessageSize): number => calibratedTokens(size.tokens, size.nativeTokens ?? 0, options.calibration);
  const breakdown: TrimBreakdown = { system: 0, anchor: 0, tools: cal(options.tools), history: 0, currentTurn: 0 };
  const turnStart = parts.prompt >= 0 ? parts.prompt : parts.currentTurnStart;
  for (const i of sentIndices) {
    const tokens = cal(sizes[i]);
    if (i < parts.headEnd) {
      if (messages[i].role === 'system') breakdown.system += tokens;
      else breakdown.anchor += tokens;
    } else if (i >= turnStart) breakdown.currentTurn += tokens;
    else breakdown.history += tokens;
  }
  return breakdown;
}

function sum(sizes: readonly MessageSize[], key: 'tokens' | 'bytes'): number {
  let total = 0;
  for (const size of sizes) total += size[key];
  return total;
}

/**
 * Pruning in epochs, the epoch rule (planTrim's cut step). The pruned set of the conversation's trim state is
 * re-applied first; only when the cut must move anyway (the held cut no longer fits, or nothing left to drop does)
 * are more old tool results pruned, and the cut then moves only if pruning did not land the request at or below
 * the low-water mark. Pruning aims a whole grid step below the ceiling (the room a grid move would free), so an
 * epoch of pruning lasts as long as an epoch of dropping.
 */

/** The pruning settings in force (literal settings without them: off). Here, not in settings.ts: it runs per request. */
export function pruneSettingsOf(historyTrim: HistoryTrimSettings): PruneSettings {
  return { enabled: historyTrim.pruneToolResults === true, protectTokens: historyTrim.pruneProtectTokens ?? DEFAULT_PRUNE_PROTECT_TOKENS };
}

export interface PruneInputs {
  prune: PruneSettings | undefined;
  /** The conversation's pruned results while the history only grew, else none. */
  held: readonly number[];
  /** The held cut (input index; 0 = none). */
  heldFirstKept: number;
  parts: HistoryParts;
  /** Messages before this input index keep their cache-stable truncation (truncatedThrough): never pruned. */
  truncatedThrough: number;
}

export interface PrunedTrim {
  trim: TrimResult;
  /** What was sent: the history with the pruned results as placeholders. */
  sentInput: WireMessage[];
  /** Pruned results sent (ascending input indices): the conversation's new pruned set. */
  prunedAt: number[];
  /** Calibrated tokens the pruned results sent would take whole, less their placeholders. */
  prunedTokens: number;
}

export function trimWithPrunes(input: readonly WireMessage[], options: TrimOptions, inputs: PruneInputs): PrunedTrim {
  const on = inputs.prune?.enabled === true && Number.isFinite(options.budget.tokens);
  // Only pruning in force calls into pruneResults.ts (a plain request runs no more of the product: requestFootprint).
  let pruned = on && inputs.held.length > 0 ? prunesStillSent(input, inputs.held, 0) : [];
  let sentInput = pruned.length > 0 ? applyPrunes(input, pruned) : (input as WireMessage[]);
  let trim = trimHistory(sentInput, options);
  const mustMove = trim.overCeiling || (trim.removed > 0 && trim.firstKept !== inputs.heldFirstKept);
  if (on && mustMove && options.extraGridMoves <= 0 && pruned.length < MAX_PRUNED_RESULTS) {
    const fresh = freshPrunes(sentInput, options, inputs, new Set(pruned)).slice(0, MAX_PRUNED_RESULTS - pruned.length);
    if (fresh.length > 0) {
      pruned = [...pruned, ...fresh].sort((a, b) => a - b);
      sentInput = applyPrunes(input, pruned);
      // Pruning changes the prefix: the request must land at or below budget − headroom, held cut or not.
      trim = trimHistory(sentInput, { ...options, holdMustLandLow: true });
    }
  }
  if (pruned.length > 0) pruned = prunesStillSent(input, pruned, trim.firstKept);
  return { trim, sentInput, prunedAt: pruned, prunedTokens: on ? savedTokens(input, sentInput, pruned, options) : 0 };
}

/** More results to prune from what the held cut keeps, until the payload is a grid step below the ceiling. */
function freshPrunes(sentInput: readonly WireMessage[], options: TrimOptions, inputs: PruneInputs, already: ReadonlySet<number>): number[] {
  const { parts } = inputs;
  const sizeOf = (i: number): MessageSize => options.memo.sizeOf(sentInput[i], options.layoutOf?.(sentInput[i]));
  const heldDrop = parts.middle.filter((unit) => unit.start < inputs.heldFirstKept).length;
  let raw = options.tools.tokens;
  let native = 0;
  let bytes = options.tools.bytes;
  for (const i of keptIndices(sentInput.length, parts, heldDrop)) {
    const size = sizeOf(i);
    raw += size.tokens;
    native += size.nativeTokens ?? 0;
    bytes += size.bytes;
  }
  const { geometry, budget, calibration } = options;
  const factor = calibration > 0 ? calibration : 1;
  const targetTokens = Math.max(0, geometry.ceiling - geometry.grid);
  const targetBytes = Number.isFinite(budget.maxBytes) ? Math.max(0, budget.maxBytes - Math.round(geometry.grid * BYTES_PER_TOKEN)) : Infinity;
  const need = {
    raw: Math.max(0, (calibratedTokens(raw, native, factor) - targetTokens) / factor),
    bytes: Number.isFinite(targetBytes) ? Math.max(0, bytes - targetBytes) : 0,
  };
  if (need.raw <= 0 && need.bytes <= 0) return [];
  const heldFirst = Math.max(heldDrop === 0 ? parts.headEnd : inputs.heldFirstKept, inputs.truncatedThrough);
  return choosePrunes({ messages: sentInput, parts, firstKept: heldFirst, already, protectRaw: (inputs.prune?.protectTokens ?? 0) / factor, sizeOf, need });
}

function savedTokens(input: readonly WireMessage[], sentInput: readonly WireMessage[], pruned: readonly number[], options: TrimOptions): number {
  let saved = 0;
  for (const i of pruned) {
    // The placeholder's share at ~4 characters a token: one memo lookup per pruned result, not two (a log figure).
    saved += Math.max(0, options.memo.sizeOf(input[i]).tokens - Math.ceil(String(sentInput[i].content).length / 4));
  }
  return Math.round(saved * (options.calibration > 0 ? options.calibration : 1));
}
