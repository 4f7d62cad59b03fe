/**
 * The leading extension's cut rule, re-implemented from its published description (its documentation and the
 * field notes), not from its code. It trims only when the payload exceeds the budget; it then drops the
 * oldest units until the payload is at or below the low-water mark (budget − headroom, for the bytes
 * too, converted at 4.5 bytes per token), and keeps dropping until the dropped payload reaches the next
 * multiple of the cut step. Headroom = 3% of the budget clamped to 8,192…32,768; headroom and step are
 * each at most 10% of the budget.
 */
import type { SizedHistory } from '../../core/report/unitCut';

export const HEADROOM_RATIO = 0.03;
export const HEADROOM_MIN_TOKENS = 8_192;
export const HEADROOM_MAX_TOKENS = 32_768;
export const CUT_STEP_TOKENS = 32_768;
export const MAX_SHARE_OF_BUDGET = 0.1;
export const BYTES_PER_TOKEN = 4.5;
const MIN_BYTE_CEILING = 512 * 1024;

export interface LeadingGeometry {
  budget: number;
  maxBytes: number;
  headroom: number;
  step: number;
  lowWaterTokens: number;
  lowWaterBytes: number;
}

export function leadingGeometry(budget: number): LeadingGeometry {
  const cap = Math.floor(MAX_SHARE_OF_BUDGET * budget);
  const headroom = Math.min(cap, Math.min(HEADROOM_MAX_TOKENS, Math.max(HEADROOM_MIN_TOKENS, Math.floor(HEADROOM_RATIO * budget))));
  const step = Math.min(cap, CUT_STEP_TOKENS);
  const maxBytes = Math.max(MIN_BYTE_CEILING, Math.round(BYTES_PER_TOKEN * budget));
  return { budget, maxBytes, headroom, step, lowWaterTokens: budget - headroom, lowWaterBytes: maxBytes - Math.round(headroom * BYTES_PER_TOKEN) };
}

/** How many of the oldest middle units the leading policy drops. */
export function leadingDropUnits(history: SizedHistory, geometry: LeadingGeometry): number {
  const { total, units } = history;
  if (total.tokens <= geometry.budget && total.bytes <= geometry.maxBytes) return 0;
  let dropUnits = 0;
  let droppedTokens = 0;
  let droppedBytes = 0;
  const drop = (): void => {
    droppedTokens += units[dropUnits].tokens;
    droppedBytes += units[dropUnits].bytes;
    dropUnits++;
  };
  while (dropUnits < units.length && (total.tokens - droppedTokens > geometry.lowWaterTokens || total.bytes - droppedBytes > geometry.lowWaterBytes)) drop();
  const nextStepBoundary = Math.ceil(droppedTokens / geometry.step) * geometry.step;
  while (dropUnits < units.length && droppedTokens < nextStepBoundary) drop();
  return dropUnits;
}
