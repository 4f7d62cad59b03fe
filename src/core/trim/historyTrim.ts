/**
 * historyTrim: decides which messages of a request are sent. Pure and deterministic: the same history,
 * settings and calibration give the same cut, so a restart lands on the same cut and the provider's
 * prefix cache stays warm. Messages that stay are the very objects passed in, never rewritten.
 */
import type { WireMessage } from '../wire/wireTypes';
import type { Budget } from './budget';
import { rawGridSize, type CutGeometry } from './cutPolicy';
import type { MessageSize, SizeMemo } from './messageSize';
import { layoutHistory, type HistoryLayout } from './units';

export interface TrimOptions {
  budget: Budget;
  geometry: CutGeometry;
  /** API tokens per estimated token for this model (1 = uncalibrated). */
  calibration: number;
  /** Extra grid steps to cut after an overflow was sensed on this conversation. */
  extraSteps: number;
  /** Cut at least this many grid steps (the conversation's last cut, so the cut never moves back). */
  minSteps?: number;
  memo: SizeMemo;
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
  /** Grid steps cut (0 when nothing was dropped). */
  steps: number;
  /** Calibrated token estimate of what is sent, tools included. */
  estTokens: number;
  rawTokens: number;
  bytes: number;
  overBudget: boolean;
  breakdown: TrimBreakdown;
}

export function trimHistory(messages: readonly WireMessage[], options: TrimOptions): TrimResult {
  const sizes = messages.map((message) => options.memo.sizeOf(message));
  const fullRaw = sum(sizes, 'tokens') + options.tools.tokens;
  const fullBytes = sum(sizes, 'bytes') + options.tools.bytes;
  const fits = (raw: number, bytes: number): boolean =>
    Math.ceil(raw * options.calibration) <= options.geometry.ceiling && bytes <= options.budget.maxBytes;

  const layout = layoutHistory(messages);
  const forced = options.extraSteps > 0 || (options.minSteps ?? 0) > 0;
  const cut = Number.isFinite(options.budget.tokens) && (forced || !fits(fullRaw, fullBytes))
    ? chooseCut(layout, sizes, fullRaw, fullBytes, fits, options)
    : { dropUnits: 0, steps: 0 };

  const sentIndices = keptIndices(messages.length, layout, cut.dropUnits);
  const kept = sentIndices.map((i) => messages[i]);
  const rawTokens = sentIndices.reduce((total, i) => total + sizes[i].tokens, options.tools.tokens);
  const bytes = sentIndices.reduce((total, i) => total + sizes[i].bytes, options.tools.bytes);
  const estTokens = Math.ceil(rawTokens * options.calibration);
  return {
    messages: kept,
    sentIndices,
    removed: messages.length - kept.length,
    steps: cut.steps,
    estTokens,
    rawTokens,
    bytes,
    overBudget: Number.isFinite(options.budget.tokens) && !fits(rawTokens, bytes),
    breakdown: breakdownOf(messages, sizes, layout, sentIndices, options),
  };
}

/**
 * Drops whole grid steps of middle units, oldest first: the smallest number of steps that fits, plus
 * any extra steps the overflow sensor asked for, and never fewer than minSteps. A step ends at the first unit boundary at or past
 * k × grid tokens dropped, so the same history always yields the same boundaries.
 */
function chooseCut(
  layout: HistoryLayout,
  sizes: readonly MessageSize[],
  fullRaw: number,
  fullBytes: number,
  fits: (raw: number, bytes: number) => boolean,
  options: TrimOptions,
): { dropUnits: number; steps: number } {
  const grid = rawGridSize(options.geometry, options.calibration);
  const units = layout.middle;
  let droppedRaw = 0;
  let droppedBytes = 0;
  let dropUnits = 0;
  let steps = 0;
  let fitSteps = fits(fullRaw, fullBytes) ? 0 : -1;
  const done = (): boolean => fitSteps >= 0 && steps >= Math.max(fitSteps + options.extraSteps, options.minSteps ?? 0);
  while (dropUnits < units.length && !done()) {
    steps++;
    while (dropUnits < units.length && droppedRaw < steps * grid) {
      const unit = units[dropUnits++];
      for (let i = unit.start; i < unit.end; i++) {
        droppedRaw += sizes[i].tokens;
        droppedBytes += sizes[i].bytes;
      }
    }
    if (fitSteps < 0 && fits(fullRaw - droppedRaw, fullBytes - droppedBytes)) fitSteps = steps;
  }
  return { dropUnits, steps };
}

function keptIndices(count: number, layout: HistoryLayout, dropUnits: number): number[] {
  const firstKeptMiddle = dropUnits < layout.middle.length ? layout.middle[dropUnits].start : layout.tailStart;
  const indices: number[] = [];
  for (let i = 0; i < layout.headEnd; i++) indices.push(i);
  for (let i = firstKeptMiddle; i < count; i++) indices.push(i);
  return indices;
}

function breakdownOf(
  messages: readonly WireMessage[],
  sizes: readonly MessageSize[],
  layout: HistoryLayout,
  sentIndices: readonly number[],
  options: TrimOptions,
): TrimBreakdown {
  const cal = (raw: number): number => Math.ceil(raw * options.calibration);
  const breakdown: TrimBreakdown = { system: 0, anchor: 0, tools: cal(options.tools.tokens), history: 0, currentTurn: 0 };
  for (const i of sentIndices) {
    const tokens = cal(sizes[i].tokens);
    if (i < layout.headEnd) {
      if (messages[i].role === 'system') breakdown.system += tokens;
      else breakdown.anchor += tokens;
    } else if (i >= layout.tailStart) breakdown.currentTurn += tokens;
    else breakdown.history += tokens;
  }
  return breakdown;
}

function sum(sizes: readonly MessageSize[], key: keyof MessageSize): number {
  let total = 0;
  for (const size of sizes) total += size[key];
  return total;
}
