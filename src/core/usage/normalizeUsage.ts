/**
 * One NormalizedUsage from whatever usage object a provider sent. The shapes differ in what "input" means:
 * OpenAI-style prompt_tokens and Responses input_tokens already include cached tokens; Anthropic's
 * input_tokens excludes both cache reads and cache writes; DeepSeek splits prompt_tokens into hit + miss.
 *
 * Shape detection, first match wins:
 *   1. deepseek   prompt_cache_hit_tokens / prompt_cache_miss_tokens (DeepSeek also sends prompt_tokens)
 *   2. openai     prompt_tokens / completion_tokens (GLM, Qwen, Kimi, and gateways that wrap Anthropic and
 *                 add its cache fields: their prompt_tokens is usually inclusive, but some pass Anthropic's
 *                 input_tokens through as prompt_tokens, see promptExcludesCache)
 *   3. anthropic  cache_read_input_tokens / cache_creation_input_tokens
 *   4. responses  input_tokens_details / output_tokens_details / total_tokens (Anthropic never sends these)
 *   5. anthropic  input_tokens / output_tokens alone (a message without cache fields, or a message_delta)
 *   6. gemini     prompt_token_count, candidates_token_count, cached_content_token_count (or camelCase);
 *                 tool_use_prompt_token_count is prompt too (Gemini counts it apart from prompt_token_count)
 *
 * Counts may arrive as numbers or numeric strings. A record that contradicts itself (cache reads above the
 * whole prompt) is never clamped into looking consistent: it is read the way that makes it consistent and
 * the reading says so (`anomaly`), for one WARN line.
 */
import type { NormalizedUsage, UsageShape } from '../types';
import { isRecord } from '../util/jsonFields';

type RawUsage = Record<string, unknown>;

interface UsageParts {
  shape: Exclude<UsageShape, 'none'>;
  contextTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  completionTokens: number;
  /** The provider's own total, 0 when it sent none. */
  reportedTotal: number;
  /** The record contradicted its shape's usual reading (see readUsage). */
  anomaly?: string;
}

/** A token count from an untrusted value: a number or a numeric string; anything else, NaN, infinities and negatives count as 0. */
function tokenCount(value: unknown): number {
  const number = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? Math.round(number) : 0;
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
  const prompt = field(raw, 'prompt_tokens');
  const write = field(raw, 'cache_creation_input_tokens');
  const { excluded, anomaly } = promptExclusion(raw, prompt, cached, write);
  return {
    shape: 'openai',
    contextTokens: excluded ? prompt + cached + write : prompt,
    anomaly,
    cachedTokens: cached,
    cacheWriteTokens: write,
    completionTokens: field(raw, 'completion_tokens'),
    reportedTotal: field(raw, 'total_tokens'),
  };
}

/**
 * A gateway that passes Anthropic's fields through may put Anthropic's input_tokens (cache excluded) into
 * prompt_tokens. Provably so when the reported total adds the cache on top of prompt and completion, or when
 * the cache reads and writes alone exceed the prompt (they are a part of an inclusive prompt). Returns the
 * anomaly to report in the second case: the record contradicts the usual (inclusive) reading.
 */
function promptExclusion(raw: RawUsage, prompt: number, cached: number, write: number): { excluded: boolean; anomaly?: string } {
  if (cached + write === 0) return { excluded: false };
  const total = field(raw, 'total_tokens');
  if (has(raw, 'cache_read_input_tokens', 'cache_creation_input_tokens') && total > 0 && total === prompt + cached + write + field(raw, 'completion_tokens')) {
    return { excluded: true };
  }
  if (cached + write <= prompt) return { excluded: false };
  return {
    excluded: true,
    anomaly: `openai-shaped usage reports more cache reads and writes (${cached + write}) than prompt tokens (${prompt}); ` +
      `reading the prompt as excluding them: context = ${prompt + cached + write}`,
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
    contextTokens: either('prompt_token_count', 'promptTokenCount') + either('tool_use_prompt_token_count', 'toolUsePromptTokenCount'),
    cachedTokens: either('cached_content_token_count', 'cachedContentTokenCount'),
    cacheWriteTokens: 0,
    // Thinking tokens are output too, but Gemini reports them apart from the candidates.
    completionTokens: either('candidates_token_count', 'candidatesTokenCount') + either('thoughts_token_count', 'thoughtsTokenCount'),
    reportedTotal: either('total_token_count', 'totalTokenCount'),
  };
}

const GEMINI_FIELDS = ['prompt_token_count', 'promptTokenCount', 'candidates_token_count', 'candidatesTokenCount',
  'cached_content_token_count', 'cachedContentTokenCount', 'total_token_count', 'totalTokenCount',
  'tool_use_prompt_token_count', 'toolUsePromptTokenCount', 'thoughts_token_count', 'thoughtsTokenCount'];

/** Each shape's reader and the fields that make a record of it: a record with none of them is no usage at all. */
const SHAPES: Record<UsageParts['shape'], { read: (raw: RawUsage) => UsageParts; fields: string[] }> = {
  deepseek: { read: fromDeepSeek, fields: ['prompt_cache_hit_tokens', 'prompt_cache_miss_tokens', 'prompt_tokens', 'completion_tokens'] },
  openai: { read: fromOpenAi, fields: ['prompt_tokens', 'completion_tokens', 'total_tokens'] },
  anthropic: { read: fromAnthropic, fields: ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] },
  responses: { read: fromResponses, fields: ['input_tokens', 'output_tokens', 'total_tokens', 'input_tokens_details'] },
  gemini: { read: fromGemini, fields: GEMINI_FIELDS },
};

function partsByShape(raw: RawUsage): UsageParts | undefined {
  if (has(raw, 'prompt_cache_hit_tokens', 'prompt_cache_miss_tokens')) return fromDeepSeek(raw);
  if (has(raw, 'prompt_tokens', 'completion_tokens')) return fromOpenAi(raw);
  if (has(raw, 'cache_read_input_tokens', 'cache_creation_input_tokens')) return fromAnthropic(raw);
  if (has(raw, 'input_tokens_details', 'output_tokens_details', 'total_tokens')) return fromResponses(raw);
  if (has(raw, 'input_tokens', 'output_tokens')) return fromAnthropic(raw);
  if (has(raw, ...GEMINI_FIELDS)) return fromGemini(raw);
  return undefined;
}

export interface UsageReading {
  usage: NormalizedUsage;
  /** Set when the record contradicted itself; says what it claimed and how it was read. */
  anomaly?: string;
}

/**
 * The provider's usage object read as a NormalizedUsage, or undefined when it is not a usage object at all (an
 * empty `usage: {}` included). `shape`: the shape the route's format defines (a native route knows it); without
 * it, the shape is detected from the fields (the chat route, whose gateways send every shape).
 */
export function readUsage(raw: unknown, routeShape?: Exclude<UsageShape, 'none'>): UsageReading | undefined {
  if (!isRecord(raw)) return undefined;
  const known = routeShape && SHAPES[routeShape];
  const parts = known ? (has(raw, ...known.fields) ? known.read(raw) : undefined) : partsByShape(raw);
  if (!parts) return undefined;
  const { shape, cachedTokens, completionTokens } = parts;
  let contextTokens = parts.contextTokens;
  let anomaly = parts.anomaly;
  if (cachedTokens > contextTokens) {
    // Cache reads are part of the prompt; more reads than prompt means the prompt count left them out.
    anomaly = `${shape}-shaped usage reports more cache reads (${cachedTokens}) than prompt tokens (${contextTokens}); ` +
      `reading the prompt as excluding them: context = ${contextTokens + cachedTokens}`;
    contextTokens += cachedTokens;
  }
  const computedTotal = contextTokens + completionTokens;
  const usage: NormalizedUsage = {
    shape,
    contextTokens,
    cachedTokens,
    cacheWriteTokens: parts.cacheWriteTokens,
    completionTokens,
    totalTokens: anomaly ? Math.max(parts.reportedTotal, computedTotal) : parts.reportedTotal || computedTotal,
  };
  return anomaly ? { usage, anomaly } : { usage };
}

/** The provider's usage object as a NormalizedUsage, or undefined when it is not a usage object at all. */
export function normalizeUsage(raw: unknown, shape?: Exclude<UsageShape, 'none'>): NormalizedUsage | undefined {
  return readUsage(raw, shape)?.usage;
}
