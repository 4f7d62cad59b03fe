/**
 * The usage objects providers report, built from one set of counts. See the "Prompt-cache usage fields"
 * table in the field notes: each shape splits the same prompt differently.
 */
import type { UsageShapeName } from './types';

export const USAGE_SHAPE_NAMES: readonly UsageShapeName[] = ['openai', 'deepseek', 'anthropic', 'anthropic-via-chat'];

export interface UsageCounts {
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** Tokens of the newest message; lets the Anthropic shape tell fresh input from cache writes. */
  lastMessageTokens?: number;
}

export function isUsageShapeName(value: unknown): value is UsageShapeName {
  return typeof value === 'string' && (USAGE_SHAPE_NAMES as readonly string[]).includes(value);
}

/** OpenAI, GLM, Qwen, Kimi: cached tokens are a part of prompt_tokens. */
export function openAiUsage(counts: UsageCounts): object {
  return {
    prompt_tokens: counts.promptTokens,
    completion_tokens: counts.completionTokens,
    total_tokens: counts.promptTokens + counts.completionTokens,
    prompt_tokens_details: { cached_tokens: counts.cachedTokens },
  };
}

/** DeepSeek: hit + miss = prompt_tokens. */
export function deepSeekUsage(counts: UsageCounts): object {
  return {
    prompt_tokens: counts.promptTokens,
    completion_tokens: counts.completionTokens,
    total_tokens: counts.promptTokens + counts.completionTokens,
    prompt_cache_hit_tokens: counts.cachedTokens,
    prompt_cache_miss_tokens: counts.promptTokens - counts.cachedTokens,
  };
}

/**
 * Anthropic: input_tokens excludes both cache fields; input + read + creation = the whole prompt.
 * The newest message is plain input; the rest of the uncached part is written to the cache.
 */
export function anthropicUsage(counts: UsageCounts): object {
  const uncached = counts.promptTokens - counts.cachedTokens;
  const input = Math.min(uncached, counts.lastMessageTokens ?? uncached);
  return {
    input_tokens: input,
    output_tokens: counts.completionTokens,
    cache_read_input_tokens: counts.cachedTokens,
    cache_creation_input_tokens: uncached - input,
  };
}

/**
 * An OpenAI-compatible gateway in front of Anthropic that passes Anthropic's input_tokens through as
 * prompt_tokens: the prompt EXCLUDES the cache reads and writes it reports beside it (cacheHit above 100%
 * when read naively).
 */
export function anthropicViaChatUsage(counts: UsageCounts): object {
  const anthropic = anthropicUsage(counts) as { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
  return {
    prompt_tokens: anthropic.input_tokens,
    completion_tokens: counts.completionTokens,
    total_tokens: anthropic.input_tokens + counts.completionTokens,
    cache_read_input_tokens: anthropic.cache_read_input_tokens,
    cache_creation_input_tokens: anthropic.cache_creation_input_tokens,
  };
}

export function buildUsage(shape: UsageShapeName, counts: UsageCounts): object {
  switch (shape) {
    case 'deepseek':
      return deepSeekUsage(counts);
    case 'anthropic':
      return anthropicUsage(counts);
    case 'anthropic-via-chat':
      return anthropicViaChatUsage(counts);
    case 'openai':
      return openAiUsage(counts);
  }
}
