/**
 * What the chat reader reads of a parsed chat-completion chunk, checked in one place, and the chat route's usage
 * conversion.
 *
 * The chunk: one valibot schema, parsed once per payload: fields we do not read pass unchecked; a field we read with
 * the wrong type (`choices` an object, `[null]`, `tool_calls` an object, content a number) is dropped and counted, and
 * the rest of the chunk is kept, so one bad field never costs the text or the usage beside it (docs/issues/012).
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
import * as v from 'valibot';
import type { NormalizedUsage } from '../../types';
import { countField, hasUsageField, nestedCount, usageReading, type RawUsage, type UsageParts, type UsageReading } from '../../usage/usage';
import { responsesUsageParts } from '../responses/responsesReader';
import { GEMINI_USAGE_FIELDS, geminiUsageParts } from '../gemini/geminiStream';
import { anthropicUsageParts } from '../messages/messagesStream';
import { isRecord } from '../../util/jsonFields';

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

/** Wrong-typed fields met while one chunk is checked (checkChunk is synchronous: one counter is enough). */
let wrongFields = 0;
/** A field's fallback: valibot also asks it for a key that is absent (no dataset then), which is no problem. */
const dropped = (dataset?: unknown): undefined => {
  if (dataset) wrongFields++;
  return undefined;
};

/** A field we read: `schema`, or absent (undefined, null: left as it came); any other value is dropped and counted. */
function field<T>(schema: v.GenericSchema<unknown, T>): v.GenericSchema<unknown, T | null | undefined> {
  return v.fallback(v.nullish(schema), dropped);
}

/** A list whose items of the wrong type are dropped and counted, the others kept. */
function list<T>(item: v.GenericSchema<unknown, T>): v.GenericSchema<unknown, T[] | null | undefined> {
  const kept: v.GenericSchema<unknown, T | undefined> = item; // widened: a dropped item falls back to undefined
  return field(v.pipe(v.array(v.fallback(kept, dropped)), v.transform((items) => items.filter((i): i is T => i !== undefined))));
}

/** A plain JSON object (an array is not one), then its fields. */
function record<T extends v.ObjectEntries>(entries: T) {
  return v.pipe(v.custom<Record<string, unknown>>(isRecord), v.object(entries));
}

const text = field(v.string());

/** Arguments are JSON text; a gateway that sends them already parsed (an object) sends them whole. */
const toolArguments = field(v.union([v.string(), v.pipe(v.custom<Record<string, unknown>>(isRecord), v.transform((o) => JSON.stringify(o)))]));

const TOOL_CALL = v.pipe(
  record({ index: field(v.pipe(v.number(), v.integer(), v.minValue(0))), id: text, function: field(record({ name: text, arguments: toolArguments })) }),
  v.transform((raw): ToolCallDelta => {
    const call: ToolCallDelta = {};
    if (raw.index != null) call.index = raw.index;
    if (raw.id) call.id = raw.id;
    if (raw.function) call.function = { ...(raw.function.name ? { name: raw.function.name } : {}), ...(raw.function.arguments ? { arguments: raw.function.arguments } : {}) };
    return call;
  }),
);

const DELTA = v.pipe(
  record({ content: text, reasoning_content: text, reasoning: v.optional(v.unknown()), refusal: text, tool_calls: list(TOOL_CALL) }),
  v.transform((raw): ChunkDelta => {
    const delta: ChunkDelta = {};
    if (raw.content != null) delta.content = raw.content;
    // DeepSeek and most gateways say reasoning_content; OpenRouter-style gateways say reasoning (read only without the other).
    const reasoning = raw.reasoning_content ?? v.parse(text, raw.reasoning);
    if (reasoning != null) delta.reasoning = reasoning;
    if (raw.refusal != null) delta.refusal = raw.refusal;
    if (raw.tool_calls) delta.tool_calls = raw.tool_calls;
    return delta;
  }),
);

const CHOICE = v.pipe(
  record({ delta: field(DELTA), finish_reason: field(v.string()) }),
  v.transform((raw): ChunkChoice => {
    const choice: ChunkChoice = {};
    if (raw.delta) choice.delta = raw.delta;
    if (raw.finish_reason) choice.finish_reason = raw.finish_reason;
    return choice;
  }),
);

const usageObject = field(v.custom<Record<string, unknown>>(isRecord));

/** `usage`, or a gateway's chunk-level `usageMetadata` (Gemini's name); both, merged, when both came. */
const CHUNK = v.pipe(
  v.object({ choices: list(CHOICE), usage: usageObject, usageMetadata: usageObject }),
  v.transform((raw): Chunk => {
    const chunk: Chunk = { choices: raw.choices ?? [] };
    if (raw.usage || raw.usageMetadata) chunk.usage = { ...raw.usage, ...raw.usageMetadata };
    return chunk;
  }),
);

/** The chunk as the reader reads it, parsed once; every field of the wrong type dropped and counted. */
export function checkChunk(parsed: Record<string, unknown>): CheckedChunk {
  wrongFields = 0;
  const chunk = v.parse(CHUNK, parsed);
  return { chunk, problems: wrongFields };
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
