/**
 * Gemini `usageMetadata` → NormalizedUsage (the route's usage conversion; the finishing rule is core/usage/usage.ts).
 * `promptTokenCount` already includes `cachedContentTokenCount`; `toolUsePromptTokenCount` (tool-use prompt, e.g.
 * search results) also sits in the context; thoughts are output. Each chunk carries the whole usage so far, so in
 * a stream the newest replaces the older. Snake_case or camelCase (gateways in front of Gemini use either).
 */
import type { NormalizedUsage } from '../../types';
import { countField, hasUsageField, usageReading, type RawUsage, type UsageParts, type UsageReading } from '../../usage/usage';
import { isRecord } from '../../util/isRecord';

export const GEMINI_USAGE_FIELDS = ['prompt_token_count', 'promptTokenCount', 'candidates_token_count', 'candidatesTokenCount',
  'cached_content_token_count', 'cachedContentTokenCount', 'total_token_count', 'totalTokenCount',
  'tool_use_prompt_token_count', 'toolUsePromptTokenCount', 'thoughts_token_count', 'thoughtsTokenCount'];

export function geminiUsageParts(raw: RawUsage): UsageParts {
  const either = (snake: string, camel: string): number => countField(raw, snake) || countField(raw, camel);
  return {
    shape: 'gemini',
    contextTokens: either('prompt_token_count', 'promptTokenCount') + either('tool_use_prompt_token_count', 'toolUsePromptTokenCount'),
    cachedTokens: either('cached_content_token_count', 'cachedContentTokenCount'),
    cacheWriteTokens: 0,
    // Thinking tokens are output too, but Gemini reports them apart from the candidates.
    completionTokens: either('candidates_token_count', 'candidatesTokenCount') + either('thoughts_token_count', 'thoughtsTokenCount'),
    reportedTotal: either('total_token_count', 'totalTokenCount'),
  };
}

/** Gemini usage, or undefined for a record with none of its fields. */
export function readGeminiUsage(raw: RawUsage): UsageReading | undefined {
  return hasUsageField(raw, ...GEMINI_USAGE_FIELDS) ? usageReading(geminiUsageParts(raw)) : undefined;
}

export function geminiUsage(raw: unknown): NormalizedUsage | undefined {
  return isRecord(raw) ? readGeminiUsage(raw)?.usage : undefined;
}
