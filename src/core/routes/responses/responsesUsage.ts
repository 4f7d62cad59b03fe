/**
 * Responses usage → NormalizedUsage. `input_tokens` already includes the cached tokens
 * (`input_tokens_details.cached_tokens`); `output_tokens` includes reasoning.
 */
import type { NormalizedUsage } from '../../types';
import { isRecord } from '../../util/isRecord';

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

export function responsesUsage(raw: unknown): NormalizedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const context = count(raw.input_tokens);
  const details = isRecord(raw.input_tokens_details) ? raw.input_tokens_details : {};
  const completion = count(raw.output_tokens);
  return {
    shape: 'responses',
    contextTokens: context,
    cachedTokens: count(details.cached_tokens),
    cacheWriteTokens: 0,
    completionTokens: completion,
    totalTokens: count(raw.total_tokens) || context + completion,
  };
}
