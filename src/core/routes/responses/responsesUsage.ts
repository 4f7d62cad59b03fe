/**
 * Responses usage → NormalizedUsage, through the one normalizer (core/usage/normalizeUsage.ts): `input_tokens`
 * already includes the cached tokens (`input_tokens_details.cached_tokens`); `output_tokens` includes reasoning.
 */
import type { NormalizedUsage } from '../../types';
import { normalizeUsage } from '../../usage/normalizeUsage';

export function responsesUsage(raw: unknown): NormalizedUsage | undefined {
  return normalizeUsage(raw, 'responses');
}
