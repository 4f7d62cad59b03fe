/**
 * Gemini `usageMetadata` → NormalizedUsage. `promptTokenCount` already includes `cachedContentTokenCount`;
 * `toolUsePromptTokenCount` (tool-use prompt, e.g. search results) also sits in the context; thoughts are
 * output. Each chunk carries the whole usage so far, so the newest replaces the older. No clamping: an
 * inconsistency stays visible.
 */
import type { NormalizedUsage } from '../../types';
import { isRecord } from '../../util/isRecord';

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

export function geminiUsage(raw: unknown): NormalizedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const context = count(raw.promptTokenCount) + count(raw.toolUsePromptTokenCount);
  const completion = count(raw.candidatesTokenCount) + count(raw.thoughtsTokenCount);
  return { shape: 'gemini', contextTokens: context, cachedTokens: count(raw.cachedContentTokenCount), cacheWriteTokens: 0, completionTokens: completion, totalTokens: context + completion };
}
