/**
 * One NormalizedUsage from whatever usage object a provider sent. The shapes differ in what "input" means:
 * OpenAI-style prompt_tokens and Responses input_tokens already include cached tokens; Anthropic's
 * input_tokens excludes both cache reads and cache writes; DeepSeek splits prompt_tokens into hit + miss.
 *
 * Shape detection, first match wins:
 *   1. deepseek   prompt_cache_hit_tokens / prompt_cache_miss_tokens (DeepSeek also sends prompt_tokens)
 *   2. openai     prompt_tokens / completion_tokens (GLM, Qwen, Kimi, and gateways that wrap Anthropic and
 *                 add its cache fields: their prompt_tokens is already inclusive)
 *   3. anthropic  cache_read_input_tokens / cache_creation_input_tokens
 *   4. responses  input_tokens_details / output_tokens_details / total_tokens (Anthropic never sends these)
 *   5. anthropic  input_tokens / output_tokens alone (a message without cache fields, or a message_delta)
 *   6. gemini     prompt_token_count, candidates_token_count, cached_content_token_count (or camelCase)
 */
import type { NormalizedUsage, UsageShape } from '../types';
import { isRecord } from '../util/isRecord';

type RawUsage = Record<string, unknown>;

interface UsageParts {
  shape: Exclude<UsageShape, 'none'>;
  contextTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  completionTokens: number;
  /** The provider's own total, 0 when it sent none. */
  reportedTotal: number;
}

/** A token count from an untrusted value: non-numbers, NaN, infinities and negatives count as 0. */
function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function has(raw: RawUsage, ...keys: string[]): boolean {
  return keys.some((key) => raw[key] !== undefined && raw[key] !== null);
}

function field(raw: RawUsage, key: string): number {
  return tokenCount(raw[key]);
}

function nestedField(raw: RawUsage, outer: string, inner: string): number {
  const nested = raw[outer];
  return isRecord(nested) ? tokenCount(nested[inner]) : 0;
}

function fromDeepSeek(raw: RawUsage): UsageParts {
  const hit = field(raw, 'prompt_cache_hit_tokens');
  const miss = field(raw, 'prompt_cache_miss_tokens');
  return {
    shape: 'deepseek',
    contextTokens: field(raw, 'prompt_tokens') || hit + miss,
    cachedTokens: hit,
    cacheWriteTokens: 0,
    completionTokens: field(raw, 'completion_tokens'),
    reportedTotal: field(raw, 'total_tokens'),
  };
}

function fromOpenAi(raw: RawUsage): UsageParts {
  const cached =
    nestedField(raw, 'prompt_tokens_details', 'cached_tokens') ||
    field(raw, 'cached_tokens') || // Kimi sometimes reports it at the top level
    field(raw, 'cache_read_input_tokens');
  return {
    shape: 'openai',
    contextTokens: field(raw, 'prompt_tokens'),
    cachedTokens: cached,
    cacheWriteTokens: field(raw, 'cache_creation_input_tokens'),
    completionTokens: field(raw, 'completion_tokens'),
    reportedTotal: field(raw, 'total_tokens'),
  };
}

function fromAnthropic(raw: RawUsage): UsageParts {
  const read = field(raw, 'cache_read_input_tokens');
  const write = field(raw, 'cache_creation_input_tokens');
  return {
    shape: 'anthropic',
    contextTokens: field(raw, 'input_tokens') + read + write,
    cachedTokens: read,
    cacheWriteTokens: write,
    completionTokens: field(raw, 'output_tokens'),
    reportedTotal: 0, // Anthropic sends no total; a gateway's would likely leave the cache out
  };
}

function fromResponses(raw: RawUsage): UsageParts {
  return {
    shape: 'responses',
    contextTokens: field(raw, 'input_tokens'),
    cachedTokens: nestedField(raw, 'input_tokens_details', 'cached_tokens'),
    cacheWriteTokens: 0,
    completionTokens: field(raw, 'output_tokens'),
    reportedTotal: field(raw, 'total_tokens'),
  };
}

function fromGemini(raw: RawUsage): UsageParts {
  const either = (snake: string, camel: string): number => field(raw, snake) || field(raw, camel);
  return {
    shape: 'gemini',
    contextTokens: either('prompt_token_count', 'promptTokenCount'),
    cachedTokens: either('cached_content_token_count', 'cachedContentTokenCount'),
    cacheWriteTokens: 0,
    // Thinking tokens are output too, but Gemini reports them apart from the candidates.
    completionTokens: either('candidates_token_count', 'candidatesTokenCount') + either('thoughts_token_count', 'thoughtsTokenCount'),
    reportedTotal: either('total_token_count', 'totalTokenCount'),
  };
}

function partsByShape(raw: RawUsage): UsageParts | undefined {
  if (has(raw, 'prompt_cache_hit_tokens', 'prompt_cache_miss_tokens')) return fromDeepSeek(raw);
  if (has(raw, 'prompt_tokens', 'completion_tokens')) return fromOpenAi(raw);
  if (has(raw, 'cache_read_input_tokens', 'cache_creation_input_tokens')) return fromAnthropic(raw);
  if (has(raw, 'input_tokens_details', 'output_tokens_details', 'total_tokens')) return fromResponses(raw);
  if (has(raw, 'input_tokens', 'output_tokens')) return fromAnthropic(raw);
  if (has(raw, 'prompt_token_count', 'promptTokenCount', 'candidates_token_count', 'candidatesTokenCount',
    'cached_content_token_count', 'cachedContentTokenCount', 'total_token_count', 'totalTokenCount')) {
    return fromGemini(raw);
  }
  return undefined;
}

/** The provider's usage object as a NormalizedUsage, or undefined when it is not a usage object at all. */
export function normalizeUsage(raw: unknown): NormalizedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const parts = partsByShape(raw);
  if (!parts) return undefined;
  const { shape, contextTokens, completionTokens } = parts;
  return {
    shape,
    contextTokens,
    // The cache serves part of the prompt, never more than all of it (guards cache-hit rates above 100%).
    cachedTokens: Math.min(parts.cachedTokens, contextTokens),
    cacheWriteTokens: parts.cacheWriteTokens,
    completionTokens,
    totalTokens: parts.reportedTotal || contextTokens + completionTokens,
  };
}
