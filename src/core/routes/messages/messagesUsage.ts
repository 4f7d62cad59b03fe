/**
 * Anthropic usage → NormalizedUsage. `input_tokens` counts only what was neither read from nor written to the
 * cache, so the context is input + cache reads + cache writes. `message_start` carries the first usage and each
 * `message_delta` a cumulative one: fields present in the newer object replace the older ones.
 */
import type { NormalizedUsage } from '../../types';
import { isRecord } from '../../util/isRecord';

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

export function mergeAnthropicUsage(earlier: Record<string, unknown> | undefined, later: unknown): Record<string, unknown> | undefined {
  if (!isRecord(later)) return earlier;
  const merged: Record<string, unknown> = { ...(earlier ?? {}) };
  for (const [key, value] of Object.entries(later)) if (value !== null && value !== undefined) merged[key] = value;
  return merged;
}

export function anthropicUsage(raw: Record<string, unknown> | undefined): NormalizedUsage | undefined {
  if (!raw) return undefined;
  const read = count(raw.cache_read_input_tokens);
  const write = count(raw.cache_creation_input_tokens);
  const context = count(raw.input_tokens) + read + write;
  const completion = count(raw.output_tokens);
  return { shape: 'anthropic', contextTokens: context, cachedTokens: read, cacheWriteTokens: write, completionTokens: completion, totalTokens: context + completion };
}
