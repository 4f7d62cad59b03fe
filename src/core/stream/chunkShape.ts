import { isRecord } from '../util/jsonFields';
/**
 * The one place a parsed chat-completion chunk is checked against the shape the mapper reads. Hand-written
 * guards on isRecord: fields we do not read pass unchecked; a field we read with the wrong type (`choices` an
 * object, `[null]`, `tool_calls` an object, content a number) is dropped and counted, and the rest of the
 * chunk is kept, so one bad field never costs the text or the usage beside it (docs/issues/012).
 */

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
