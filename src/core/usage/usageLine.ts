/**
 * The two ways usage leaves the extension: a log line users grep for, and the payload of the final
 * `usage` data part that VS Code chat reads for its context indicator and its compaction trigger.
 */
import { costField, type RequestCost } from '../cost/requestCost';
import type { NormalizedUsage } from '../types';

/** Share of the prompt served from cache, in percent: 0 for an empty prompt, never above 100. */
export function cacheHitPercent(u: NormalizedUsage): number {
  if (u.contextTokens <= 0) return 0;
  return Math.min(100, (Math.max(0, u.cachedTokens) / u.contextTokens) * 100);
}

/**
 * `[usage] prompt=P completion=C total=T cached=K cacheHit=X.X%[ cost=$D| cost≈$D][ purpose=U]`, prompt being all
 * context tokens; the cost is OpenCode's (`=`) or computed from the model's prices (`≈`), and absent when neither is
 * known; the purpose (core/request/purpose.ts) is named for every request that is not a conversation turn.
 */
export function formatUsageLine(u: NormalizedUsage, cost?: RequestCost, purpose?: string): string {
  return `[usage] prompt=${u.contextTokens} completion=${u.completionTokens} total=${u.totalTokens} ` +
    `cached=${u.cachedTokens} cacheHit=${cacheHitPercent(u).toFixed(1)}%${cost ? ` ${costField(cost)}` : ''}${purpose && purpose !== 'conversation' ? ` purpose=${purpose}` : ''}`;
}

/** What VS Code chat parses from a data part with mime type `usage` (OpenAI's field names). */
export interface UsageDataPartPayload {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

export function usageDataPartPayload(u: NormalizedUsage): UsageDataPartPayload {
  return {
    // Context tokens, not Anthropic's bare input_tokens: chat compares this number with the window.
    prompt_tokens: u.contextTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.totalTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens },
  };
}
