/**
 * The trim with pruning in epochs (planTrim's cut step). The pruned set of the conversation's trim state is
 * re-applied first; only when the cut must move anyway (the held cut no longer fits, or nothing left to drop does)
 * are more old tool results pruned, and the cut then moves only if pruning did not land the request at or below
 * the low-water mark. Pruning aims a whole grid step below the ceiling (the room a grid move would free), so an
 * epoch of pruning lasts as long as an epoch of dropping.
 */
import type { PruneSettings } from '../config/settings';
import type { WireMessage } from '../wire/wireTypes';
import { BYTES_PER_TOKEN } from './budget';
import { calibratedTokens, trimHistory, type TrimOptions, type TrimResult } from './historyTrim';
import type { MessageSize } from './messageSize';
import { applyPrunes, choosePrunes, MAX_PRUNED_RESULTS, prunesStillSent } from './pruneResults';
import { keptIndices, type HistoryParts } from './units';

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
  let pruned = on ? prunesStillSent(input, inputs.held, 0) : [];
  let sentInput = applyPrunes(input, pruned);
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
  pruned = prunesStillSent(input, pruned, trim.firstKept);
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
