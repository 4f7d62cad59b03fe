/**
 * Gemini `usageMetadata` → NormalizedUsage, through the one normalizer (core/usage/normalizeUsage.ts).
 * `promptTokenCount` already includes `cachedContentTokenCount`; `toolUsePromptTokenCount` (tool-use prompt, e.g.
 * search results) also sits in the context; thoughts are output. Each chunk carries the whole usage so far, so in
 * a stream the newest replaces the older.
 */
import type { NormalizedUsage } from '../../types';
import { normalizeUsage } from '../../usage/normalizeUsage';

export function geminiUsage(raw: unknown): NormalizedUsage | undefined {
  return normalizeUsage(raw, 'gemini');
}
