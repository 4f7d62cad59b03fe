/**
 * Anthropic usage → NormalizedUsage (the route's usage conversion; the finishing rule is core/usage/usage.ts).
 * `input_tokens` counts only what was neither read from nor written to the cache, so the context is input + cache
 * reads + cache writes. In a stream, `message_start`'s usage and each cumulative `message_delta`'s are merged field by
 * field (core/usage/usage.ts mergeUsage, applied by the assembler).
 */
import type { NormalizedUsage } from '../../types';
import { countField, hasUsageField, usageReading, type RawUsage, type UsageParts, type UsageReading } from '../../usage/usage';
import { isRecord } from '../../util/isRecord';

export function anthropicUsageParts(raw: RawUsage): UsageParts {
  const read = countField(raw, 'cache_read_input_tokens');
  const write = countField(raw, 'cache_creation_input_tokens');
  return {
    shape: 'anthropic',
    contextTokens: countField(raw, 'input_tokens') + read + write,
    cachedTokens: read,
    cacheWriteTokens: write,
    completionTokens: countField(raw, 'output_tokens'),
    reportedTotal: 0, // Anthropic sends no total; a gateway's would likely leave the cache out
  };
}

/** Anthropic usage, or undefined for a record with none of its fields. */
export function readAnthropicUsage(raw: RawUsage): UsageReading | undefined {
  return hasUsageField(raw, 'input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens') ? usageReading(anthropicUsageParts(raw)) : undefined;
}

export function anthropicUsage(raw: unknown): NormalizedUsage | undefined {
  return isRecord(raw) ? readAnthropicUsage(raw)?.usage : undefined;
}
