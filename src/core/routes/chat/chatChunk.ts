/**
 * What the chat reader reads of a parsed chat-completion chunk, checked in one place, and the chat route's usage
 * conversion.
 *
 * The chunk: hand-written guards on isRecord: fields we do not read pass unchecked; a field we read with the wrong
 * type (`choices` an object, `[null]`, `tool_calls` an object, content a number) is dropped and counted, and the rest
 * of the chunk is kept, so one bad field never costs the text or the usage beside it (docs/issues/012).
 *
 * The usage: the gateways behind Chat Completions send every shape, so the shape is detected from the fields, first
 * match wins (OpenAI-style prompt_tokens already include cached tokens; DeepSeek splits them into hit + miss; the
 * other shapes are read by the route whose format they are):
 *   1. deepseek   prompt_cache_hit_tokens / prompt_cache_miss_tokens (DeepSeek also sends prompt_tokens)
 *   2. openai     prompt_tokens / completion_tokens (GLM, Qwen, Kimi, and gateways that wrap Anthropic and
 *                 add its cache fields: their prompt_tokens is usually inclusive, but some pass Anthropic's
 *                 input_tokens through as prompt_tokens, see promptExclusion)
 *   3. anthropic  cache_read_input_tokens / cache_creation_input_tokens (routes/messages)
 *   4. responses  input_tokens_details / output_tokens_details / total_tokens (routes/responses; Anthropic never sends these)
 *   5. anthropic  input_tokens / output_tokens alone (a message without cache fields, or a message_delta)
 *   6. gemini     prompt_token_count, candidates_token_count, … or camelCase (routes/gemini)
 */
import type { NormalizedUsage } from '../../types';
import { countField, hasUsageField, nestedCount, usageReading, type RawUsage, type UsageParts, type UsageReading } from '../../usage/usage';
import { isRecord } from '../../util/isRecord';
import { GEMINI_USAGE_FIELDS, geminiUsageParts } from '../gemini/geminiUsage';
import { anthropicUsageParts } from '../messages/messagesUsage';
import { responsesUsageParts } from '../responses/responsesReader';

/** A tool-call fragment: keyed by `index` (some gateways send it only on the first fragment). */
export interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

export interface ChunkDelta {
  content?: string;
  reasoning?: string;
  /** The model's words declining to answer (OpenAI's `refusal`, content null). */
  refusal?: string;
  tool_calls?: ToolCallDelta[];
}

export interface ChunkChoice {
  delta?: ChunkDelta;
  finish_reason?: string;
}

/** A chunk the mapper can trust. `usage` is still raw: usage objects have their own reader (core/usage). */
export interface Chunk {
  choices: ChunkChoice[];
  /** `usage`, or a gateway's chunk-level `usageMetadata` (Gemini's name). */
  usage?: Record<string, unknown>;
}

export interface CheckedChunk {
  chunk: Chunk;
  /** Fields dropped because their type was wrong; 0 for a well-formed chunk. */
  problems: number;
}

const absent = (value: unknown): boolean => value === undefined || value === null;

export function checkChunk(parsed: Record<string, unknown>): CheckedChunk {
  const found = { problems: 0 };
  const chunk: Chunk = { choices: choicesOf(parsed.choices, found) };
  const usage = usageOf(parsed, found);
  if (usage) chunk.usage = usage;
  return { chunk, problems: found.problems };
}

function choicesOf(raw: unknown, found: { problems: number }): ChunkChoice[] {
  if (absent(raw)) return [];
  if (!Array.isArray(raw)) return bad(found, []);
  const choices: ChunkChoice[] = [];
  for (const item of raw) {
    if (!isRecord(item)) {
      found.problems++;
      continue;
    }
    const choice: ChunkChoice = {};
    if (!absent(item.delta)) {
      if (isRecord(item.delta)) choice.delta = deltaOf(item.delta, found);
      else found.problems++;
    }
    const finish = item.finish_reason;
    if (typeof finish === 'string' && finish) choice.finish_reason = finish;
    else if (!absent(finish) && finish !== '') found.problems++;
    choices.push(choice);
  }
  return choices;
}

function deltaOf(raw: Record<string, unknown>, found: { problems: number }): ChunkDelta {
  const delta: ChunkDelta = {};
  const content = stringField(raw.content, found);
  if (content !== undefined) delta.content = content;
  // DeepSeek and most gateways say reasoning_content; OpenRouter-style gateways say reasoning.
  const reasoning = stringField(raw.reasoning_content, found) ?? stringField(raw.reasoning, found);
  if (reasoning !== undefined) delta.reasoning = reasoning;
  const refusal = stringField(raw.refusal, found);
  if (refusal !== undefined) delta.refusal = refusal;
  if (!absent(raw.tool_calls)) {
    if (Array.isArray(raw.tool_calls)) delta.tool_calls = raw.tool_calls.flatMap((call) => toolCallOf(call, found));
    else found.problems++;
  }
  return delta;
}

function toolCallOf(raw: unknown, found: { problems: number }): ToolCallDelta[] {
  if (!isRecord(raw)) return bad(found, []);
  const call: ToolCallDelta = {};
  if (typeof raw.index === 'number' && Number.isInteger(raw.index) && raw.index >= 0) call.index = raw.index;
  else if (!absent(raw.index)) found.problems++;
  const id = stringField(raw.id, found);
  if (id) call.id = id;
  if (isRecord(raw.function)) {
    const name = stringField(raw.function.name, found);
    const args = argumentsOf(raw.function.arguments, found);
    call.function = { ...(name ? { name } : {}), ...(args ? { arguments: args } : {}) };
  } else if (!absent(raw.function)) found.problems++;
  return [call];
}

/** Arguments are JSON text; a gateway that sends them already parsed (an object) sends them whole. */
function argumentsOf(raw: unknown, found: { problems: number }): string | undefined {
  if (isRecord(raw)) return JSON.stringify(raw);
  return stringField(raw, found);
}

function stringField(raw: unknown, found: { problems: number }): string | undefined {
  if (typeof raw === 'string') return raw;
  if (!absent(raw)) found.problems++;
  return undefined;
}

function usageOf(parsed: Record<string, unknown>, found: { problems: number }): Record<string, unknown> | undefined {
  let usage: Record<string, unknown> | undefined;
  for (const key of ['usage', 'usageMetadata']) {
    const raw = parsed[key];
    if (isRecord(raw)) usage = { ...usage, ...raw };
    else if (!absent(raw)) found.problems++;
  }
  return usage;
}

function bad<T>(found: { problems: number }, value: T): T {
  found.problems++;
  return value;
}

function fromDeepSeek(raw: RawUsage): UsageParts {
  const hit = countField(raw, 'prompt_cache_hit_tokens');
  const miss = countField(raw, 'prompt_cache_miss_tokens');
  return {
    shape: 'deepseek',
    contextTokens: countField(raw, 'prompt_tokens') || hit + miss,
    cachedTokens: hit,
    cacheWriteTokens: 0,
    completionTokens: countField(raw, 'completion_tokens'),
    reportedTotal: countField(raw, 'total_tokens'),
  };
}

function fromOpenAi(raw: RawUsage): UsageParts {
  const cached =
    nestedCount(raw, 'prompt_tokens_details', 'cached_tokens') ||
    countField(raw, 'cached_tokens') || // Kimi sometimes reports it at the top level
    countField(raw, 'cache_read_input_tokens');
  const prompt = countField(raw, 'prompt_tokens');
  const write = countField(raw, 'cache_creation_input_tokens');
  const { excluded, anomaly } = promptExclusion(raw, prompt, cached, write);
  return {
    shape: 'openai',
    contextTokens: excluded ? prompt + cached + write : prompt,
    anomaly,
    cachedTokens: cached,
    cacheWriteTokens: write,
    completionTokens: countField(raw, 'completion_tokens'),
    reportedTotal: countField(raw, 'total_tokens'),
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
  const total = countField(raw, 'total_tokens');
  if (hasUsageField(raw, 'cache_read_input_tokens', 'cache_creation_input_tokens') && total > 0 && total === prompt + cached + write + countField(raw, 'completion_tokens')) {
    return { excluded: true };
  }
  if (cached + write <= prompt) return { excluded: false };
  return {
    excluded: true,
    anomaly: `openai-shaped usage reports more cache reads and writes (${cached + write}) than prompt tokens (${prompt}); ` +
      `reading the prompt as excluding them: context = ${prompt + cached + write}`,
  };
}

function partsByShape(raw: RawUsage): UsageParts | undefined {
  if (hasUsageField(raw, 'prompt_cache_hit_tokens', 'prompt_cache_miss_tokens')) return fromDeepSeek(raw);
  if (hasUsageField(raw, 'prompt_tokens', 'completion_tokens')) return fromOpenAi(raw);
  if (hasUsageField(raw, 'cache_read_input_tokens', 'cache_creation_input_tokens')) return anthropicUsageParts(raw);
  if (hasUsageField(raw, 'input_tokens_details', 'output_tokens_details', 'total_tokens')) return responsesUsageParts(raw);
  if (hasUsageField(raw, 'input_tokens', 'output_tokens')) return anthropicUsageParts(raw);
  if (hasUsageField(raw, ...GEMINI_USAGE_FIELDS)) return geminiUsageParts(raw);
  return undefined;
}

/** A chat usage object (any shape a gateway sends) read as a NormalizedUsage, or undefined when it is not usage at all. */
export function readUsage(raw: unknown): UsageReading | undefined {
  const parts = isRecord(raw) ? partsByShape(raw) : undefined;
  return parts && usageReading(parts);
}

export function normalizeUsage(raw: unknown): NormalizedUsage | undefined {
  return readUsage(raw)?.usage;
}
