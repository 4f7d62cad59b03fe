/**
 * The truncation step of the trim path (planTrim): over budget with nothing left to drop, or messages cut on an
 * earlier request still sent. Moved out of request/prepareRequest.ts unchanged.
 */
import { BYTES_PER_TOKEN, type Budget } from './budget';
import type { CutGeometry } from './cutPolicy';
import { calibratedTokens, type TrimResult } from './historyTrim';
import { measureMessage, type SizeMemo } from './messageSize';
import { firstTruncation } from './trimLog';
import { truncateOversized } from './truncateOversized';
import type { Logger } from '../log';
import type { AssistantLayout } from '../answer/nativeReplay';
import type { WireMessage } from '../wire/wireTypes';

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
