/**
 * The overflow sensor: after each response, is the conversation about to outgrow the model's window?
 * Reads usage, decides, changes nothing.
 */
import type { NormalizedUsage } from '../types';

/** Room kept free for the answer, so a long reply (reasoning, tool-call JSON) is not cut mid-way. */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 20_000;

/** Tokens the prompt may fill: the window minus the output reserve, never negative (small models). */
export function usableTokens(contextWindow: number, reserve = DEFAULT_RESERVED_OUTPUT_TOKENS): number {
  return Math.max(0, contextWindow - reserve);
}

/** What the prompt may fill: window − reserve, or the model's input limit when that is smaller (trim/budget.ts). */
export function usableOf(contextWindow: number, reserve = DEFAULT_RESERVED_OUTPUT_TOKENS, inputLimit?: number): number {
  return Math.min(usableTokens(contextWindow, reserve), inputLimit !== undefined && inputLimit > 0 ? inputLimit : Infinity);
}

/**
 * Everything the prompt occupied is `contextTokens` (normalizeUsage adds cache reads and writes). Output is
 * excluded: it lives in the reserve now, and is counted as input once it joins the history.
 */
export function isOverflowing(u: NormalizedUsage, contextWindow: number, reserve?: number, inputLimit?: number): boolean {
  // >=, not >: reaching the usable size exactly already leaves no room for the next turn's input.
  return u.contextTokens >= usableOf(contextWindow, reserve, inputLimit);
}

/** `[overflow] used=U usable=S limit=L reserved=R` (a log contract: `limit=` is the window, `reserved=` the reserve). */
export function overflowLine(used: number, usable: number, contextWindow: number, reserve: number): string {
  return `[overflow] used=${used} usable=${usable} limit=${contextWindow} reserved=${reserve}`;
}
