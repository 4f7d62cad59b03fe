/**
 * The trim's core: the extension's whole trim path for an already-converted history (budget → cut with prunes →
 * truncation of oversized messages → the conversation's trim state → the [history-trim] lines), and the check that
 * the part no cut can shorten (the tools and the instructions) fits at all. The engine (core/request/prepareRequest.ts),
 * the report's replay, the replay tool and the bench all call this same planTrim; a replay of a recording measures
 * the passed-back native items it no longer has through a size decorator (core/replay/recordedSizes.ts), not
 * through an option of the live trim.
 *
 * The fixed part: VS Code's agent offers ~15K tokens of tools, and on a 6K model the trim used to cut the system
 * prompt to a stub, log "Over budget" and send a request the endpoint refused with a sentence about long
 * conversations. measureFixedPart sizes it as the trim does (its memo, its calibration), so the check and the cut
 * agree; the request refuses such a request before it is sent (core/request/userFacingError.ts fixedPartError).
 */
import type { Settings } from '../config/settings';
import type { Logger } from '../log';
import { conversationSessionId, type SessionIds } from '../session/sessionId';
import type { ModelLimits } from '../types';
import { layoutLookup, type NativeReplay } from '../answer/nativeReplay';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { computeBudget, type Budget, cutGeometry, gridFor, type CutGeometry } from './budget';
import { calibratedTokens, pruneSettingsOf, trimWithPrunes, type TrimOptions, type TrimResult } from './historyTrim';
import { type MessageSize, type SizeMemo } from './messageSize';
import { historyTrimLine, overCeilingLine } from './trimLog';
import { shrinkOversized } from './truncateOversized';
import { type ConversationStates } from './trimState';
import { DEFAULT_KEEP_RECENT_ROUNDS, splitHistory } from './cut';
import { toolsSize } from './messageSize';

/** What the trim of one request works with. */
export interface TrimContext {
  settings: Settings;
  limits: ModelLimits;
  calibration: number;
  /** The model's calibration spread (Calibrations.spread): the cut's safety margin follows it. 0 when unknown. */
  calibrationSpread?: number;
  memo: SizeMemo;
  states: ConversationStates;
  log: Logger;
  /** Tells conversations with the same opening apart (sessionId.ts); without it, the opening alone is the id. */
  sessionIds?: SessionIds;
  /** Native items of earlier answers, passed back verbatim by the native routes; measured in their message's size. */
  replay?: NativeReplay;
}

export interface TrimPlan {
  /** The full (repaired) history before trimming, as the replay tool and the request recorder see it. */
  input: WireMessage[];
  tools: WireTool[];
  sessionId: string;
  budget: Budget;
  geometry: CutGeometry;
  trim: TrimResult;
  cutMoved: boolean;
  /** Tool results sent as a placeholder (pruneResults.ts) and the calibrated tokens that saves. */
  pruned: { results: number; tokens: number };
  /** The calibration and its spread this trim used (the report's replay uses them, to land on the same cut). */
  calibration: number;
  calibrationSpread: number;
}

/**
 * The extension's whole trim path for an already-converted (tool pairs repaired) history: budget, cut,
 * truncate, log. The replay tool and the bench call exactly this, after the same repair (repairedHistory).
 */
export function planTrim(messages: WireMessage[], tools: WireTool[], ctx: TrimContext): TrimPlan {
  const input = messages;
  const sessionId = ctx.sessionIds ? ctx.sessionIds.idFor(input) : conversationSessionId(input);
  const budget = trimBudget(ctx);
  const geometry = cutGeometry(Number.isFinite(budget.tokens) ? budget.tokens : 0, ctx.settings.historyTrim, ctx.calibrationSpread ?? 0);
  // While the history only grows, the last cut, its grid and its truncations still bind (never move back).
  const grew = ctx.states.grew(sessionId, input.length);
  const prior = ctx.states.get(sessionId);
  const grid = gridFor(geometry, budget.tokens, ctx.calibration, grew ? ctx.states.frozenGrid(sessionId) : undefined);
  const keepRounds = ctx.settings.historyTrim.keepRecentRounds ?? DEFAULT_KEEP_RECENT_ROUNDS;
  // Split once per request: the trim and the truncation read the same parts.
  const parts = splitHistory(input, keepRounds);
  // Native items (encrypted reasoning, signed thinking, thought signatures) count in their message's size on every route alike.
  const layoutOf = layoutLookup(ctx.replay);
  const options: TrimOptions = {
    budget,
    geometry,
    calibration: ctx.calibration,
    rawGrid: grid.rawGrid,
    extraGridMoves: prior.extraSteps,
    minFirstKept: grew ? prior.lastFirstKept : 0,
    lastRemoved: grew ? prior.lastRemoved : 0,
    keepRounds,
    parts,
    memo: ctx.memo,
    layoutOf,
    tools: toolsSize(tools),
  };
  // Pruned results are re-applied as they were; more are pruned only when the cut must move (historyTrim.ts, trimWithPrunes).
  const pruning = trimWithPrunes(input, options, { prune: pruneSettingsOf(ctx.settings.historyTrim), held: grew ? (prior.prunedAt ?? []) : [], heldFirstKept: grew ? prior.lastFirstKept : 0, parts, truncatedThrough: grew ? prior.truncatedThrough : 0 });
  const { trim, sentInput } = pruning;
  const sticky = grew ? prior.truncatedThrough : 0;
  const prefixChanged = grew && prior.lastExactAt > 0 && trim.sentIndices.includes(prior.lastExactAt - 1);
  const moving = !grew || prefixChanged || trim.removed !== prior.lastRemoved || (trim.removed > 0 && trim.firstKept !== prior.lastFirstKept) || pruning.prunedAt.length !== (prior.prunedAt ?? []).length;
  const shrunk = trim.overCeiling || sticky > 0 ? shrinkOversized(sentInput, trim, { budget, geometry, sticky, sessionId, moving, headEnd: parts.headEnd, layoutOf }, ctx) : { trim, truncatedThrough: 0, exactAt: 0 };
  const sent = shrunk.trim;
  const cutMoved = ctx.states.recordCut(sessionId, {
    removed: trim.removed,
    gridMoves: trim.gridMoves,
    firstKept: trim.firstKept,
    grid,
    truncatedThrough: shrunk.truncatedThrough,
    lastExactAt: shrunk.exactAt,
    prefixChanged,
    inputLength: input.length,
    prunedAt: pruning.prunedAt,
  });
  const pruned = { results: pruning.prunedAt.length, tokens: pruning.prunedTokens };
  if (trim.removed > 0 || shrunk.truncatedThrough > 0 || pruned.results > 0) ctx.log.info(historyTrimLine(sent, budget, geometry, cutMoved, pruned));
  if (sent.overCeiling) ctx.log.error(overCeilingLine(sent, budget));
  return { input, tools, sessionId, budget, geometry, trim: sent, cutMoved, pruned, calibration: ctx.calibration, calibrationSpread: ctx.calibrationSpread ?? 0 };
}

export function trimBudget(ctx: Pick<TrimContext, 'settings' | 'limits'>): Budget {
  const budget = computeBudget(ctx.limits, ctx.settings);
  if (!ctx.settings.historyTrim.enabled) return { ...budget, tokens: Infinity, maxBytes: Infinity };
  return budget;
}

export interface FixedPart {
  modelId: string;
  /** The input budget the trim uses, and its ceiling (the budget less the safety margin). */
  budgetTokens: number;
  ceilingTokens: number;
  toolCount: number;
  /** Calibrated token estimates. */
  toolsTokens: number;
  systemTokens: number;
  /** The newest message: sent on every request, whatever the cut. */
  newestTokens: number;
  /** The byte ceiling (opencode.maxRequestBytes, or derived from the budget) and what the fixed part weighs. */
  maxBytes: number;
  toolsBytes: number;
  systemBytes: number;
}

export interface FixedPartInput {
  modelId: string;
  messages: readonly WireMessage[];
  toolCount: number;
  toolsSize: MessageSize;
  budgetTokens: number;
  ceilingTokens: number;
  maxBytes: number;
}

/** Sizes as the trim measures them (its memo, its calibration), so this check and the cut agree. */
export function measureFixedPart(input: FixedPartInput, sizing: { memo: SizeMemo; calibration: number }): FixedPart {
  const tokens = (size: MessageSize): number => calibratedTokens(size.tokens, size.nativeTokens ?? 0, sizing.calibration);
  const { messages } = input;
  let systemTokens = 0;
  let systemBytes = 0;
  for (let i = 0; i < messages.length && messages[i].role === 'system'; i++) {
    const size = sizing.memo.sizeOf(messages[i]);
    systemTokens += tokens(size);
    systemBytes += size.bytes;
  }
  const newest = messages.at(-1);
  return {
    modelId: input.modelId,
    budgetTokens: input.budgetTokens,
    ceilingTokens: input.ceilingTokens,
    toolCount: input.toolCount,
    toolsTokens: tokens(input.toolsSize),
    systemTokens,
    newestTokens: newest && newest.role !== 'system' ? tokens(sizing.memo.sizeOf(newest)) : 0,
    maxBytes: input.maxBytes,
    toolsBytes: input.toolsSize.bytes,
    systemBytes,
  };
}

export const overTokens = (part: FixedPart): boolean => part.toolsTokens + part.systemTokens > part.ceilingTokens;
const overBytes = (part: FixedPart): boolean => part.toolsBytes + part.systemBytes > part.maxBytes;

/** True when the tools and the instructions alone are over the ceiling (tokens or bytes): dropping history cannot make it fit. */
export function fixedPartOverBudget(part: FixedPart): boolean {
  return overTokens(part) || overBytes(part);
}
