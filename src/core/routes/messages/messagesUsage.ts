/**
 * Anthropic usage → NormalizedUsage, through the one normalizer (core/usage/normalizeUsage.ts). `input_tokens`
 * counts only what was neither read from nor written to the cache, so the context is input + cache reads + cache
 * writes. In a stream, `message_start`'s usage and each cumulative `message_delta`'s are merged field by field
 * (core/usage/mergeUsage.ts, applied by the assembler).
 */
import type { NormalizedUsage } from '../../types';
import { normalizeUsage } from '../../usage/normalizeUsage';

export function anthropicUsage(raw: unknown): NormalizedUsage | undefined {
  return normalizeUsage(raw, 'anthropic');
}
