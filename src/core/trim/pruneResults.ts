/**
 * Pruning in epochs: at the moments the cut must move anyway (the next request is cold regardless), old tool
 * results lose their output to a short placeholder before any unit is dropped, so the conversation's prompts and
 * decisions stay longer. What was pruned is part of the conversation's trim state (input indices): every request
 * until the next move re-applies exactly that set, so the bytes before the tail are the same request after request.
 *
 * A placeholder depends on the result and its call alone (tool name, a short argument, the output's length), never
 * on later history, the budget or the calibration: re-applied on a later request it is byte-identical.
 * docs/history-trim.md, "Pruning in epochs".
 */
import type { WireMessage, WireToolCall } from '../wire/wireTypes';
import type { MessageSize } from './messageSize';
import { type HistoryParts } from './cut';

/** An output this short (estimator tokens) is not worth a placeholder. */
export const MIN_PRUNED_TOKENS = 256;
/** Pruned results a conversation's state may hold (persisted; validated on load). */
export const MAX_PRUNED_RESULTS = 20_000;
const ARGUMENT_CHARS = 120;

/** The history with the results at `pruned` (input indices of tool messages) replaced by their placeholders. */
export function applyPrunes(messages: readonly WireMessage[], pruned: readonly number[]): WireMessage[] {
  if (pruned.length === 0) return messages as WireMessage[];
  const out = messages.slice();
  for (const i of pruned) {
    const message = messages[i];
    if (message?.role === 'tool') out[i] = { role: 'tool', tool_call_id: message.tool_call_id, content: placeholderOf(messages, i) };
  }
  return out;
}

/** The pruned indices that still name a tool result after the cut (the rest are dropped anyway, or the history changed). */
export function prunesStillSent(messages: readonly WireMessage[], pruned: readonly number[], firstKept: number): number[] {
  return pruned.filter((i) => i >= firstKept && i < messages.length && messages[i].role === 'tool');
}

export function placeholderOf(messages: readonly WireMessage[], index: number): string {
  const result = messages[index] as Extract<WireMessage, { role: 'tool' }>;
  const call = callOf(messages, index);
  const name = call?.function.name ?? 'tool';
  const argument = call ? shortArgument(call.function.arguments) : '';
  const images = result.images?.length ? ` and ${result.images.length} image(s)` : '';
  return `[Old tool result cleared by the OpenCode extension to save context: ${name}${argument ? ` (${argument})` : ''} returned ${result.content.length} characters${images}. Call the tool again if you need it.]`;
}

/** The call a result answers: the tool-call message its unit starts with. */
function callOf(messages: readonly WireMessage[], index: number): WireToolCall | undefined {
  const id = (messages[index] as Extract<WireMessage, { role: 'tool' }>).tool_call_id;
  for (let i = index - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'tool') continue;
    return message.role === 'assistant' ? message.tool_calls?.find((c) => c.id === id) : undefined;
  }
  return undefined;
}

const PATH_KEYS = ['filePath', 'path', 'file', 'filename', 'uri', 'url', 'command', 'query', 'pattern'];

/** The call's most telling string argument (a path, a command, a query), bounded; '' when there is none. */
function shortArgument(argumentsJson: string): string {
  const args = parseObject(argumentsJson);
  if (!args) return '';
  const key = PATH_KEYS.find((k) => typeof args[k] === 'string' && args[k] !== '');
  if (!key) return '';
  const value = (args[key] as string).replace(/\s+/g, ' ');
  return `${key}: ${value.length > ARGUMENT_CHARS ? `${value.slice(0, ARGUMENT_CHARS)}…` : value}`;
}

function parseObject(json: string): Record<string, unknown> | undefined {
  if (json.length > 100_000) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The file a call reads, when it is a read (a tool whose name says read/view/open with a path argument). */
function readTarget(call: WireToolCall | undefined): string | undefined {
  if (!call || !/read|view|open|cat/i.test(call.function.name)) return undefined;
  const args = parseObject(call.function.arguments);
  const path = args && ['filePath', 'path', 'file', 'filename', 'uri'].map((k) => args[k]).find((p) => typeof p === 'string' && p !== '');
  return typeof path === 'string' ? `${call.function.name}|${path}` : undefined;
}

export interface PruneChoice {
  messages: readonly WireMessage[];
  parts: HistoryParts;
  /** Input index of the first message the held cut keeps after the head. */
  firstKept: number;
  already: ReadonlySet<number>;
  /** Estimator tokens of tool output protected from the newest end (protectTokens ÷ calibration). */
  protectRaw: number;
  sizeOf: (index: number) => MessageSize;
  /** What must be freed (estimator tokens, bytes): pruning stops once both are. */
  need: { raw: number; bytes: number };
}

/**
 * The results to prune now, in order: file reads a newer read of the same file supersedes first, then results
 * older than the protected tail of tool output, oldest first, until `need` is freed (or none is left). Never in
 * the head (anchor) or the always-sent tail (prompt and newest rounds), never before the held cut.
 */
export function choosePrunes(choice: PruneChoice): number[] {
  const { messages, parts } = choice;
  const protectedFrom = protectedStart(choice);
  const newestRead = new Map<string, number>();
  messages.forEach((m, i) => {
    const target = m.role === 'tool' ? readTarget(callOf(messages, i)) : undefined;
    if (target) newestRead.set(target, i);
  });
  const superseded: number[] = [];
  const old: number[] = [];
  const from = Math.max(choice.firstKept, parts.headEnd);
  for (let i = from; i < parts.currentTurnStart; i++) {
    if (messages[i].role !== 'tool' || i === parts.prompt || choice.already.has(i) || choice.sizeOf(i).tokens < MIN_PRUNED_TOKENS) continue;
    const target = readTarget(callOf(messages, i));
    if (target !== undefined && (newestRead.get(target) ?? i) > i) superseded.push(i);
    else if (i < protectedFrom) old.push(i);
  }
  const picked: number[] = [];
  let raw = 0;
  let bytes = 0;
  for (const i of [...superseded, ...old]) {
    if (raw >= choice.need.raw && bytes >= choice.need.bytes) break;
    const size = choice.sizeOf(i);
    const after = placeholderSize(messages, i, size);
    raw += size.tokens - after.tokens;
    bytes += size.bytes - after.bytes;
    picked.push(i);
  }
  return picked.sort((a, b) => a - b);
}

/** The first input index of the protected tail: the newest tool outputs adding up to protectRaw stay whole. */
function protectedStart(choice: PruneChoice): number {
  let total = 0;
  for (let i = choice.messages.length - 1; i >= 0; i--) {
    if (choice.messages[i].role !== 'tool' || choice.already.has(i)) continue;
    if (total >= choice.protectRaw) return i + 1;
    total += choice.sizeOf(i).tokens;
  }
  return 0;
}

/** A placeholder's size, close enough for choosing (the trim measures the real one). */
function placeholderSize(messages: readonly WireMessage[], index: number, size: MessageSize): MessageSize {
  const text = placeholderOf(messages, index);
  const content = (messages[index] as Extract<WireMessage, { role: 'tool' }>).content;
  const bytes = Math.max(0, size.bytes - Buffer.byteLength(JSON.stringify(content)) + Buffer.byteLength(JSON.stringify(text)));
  return { tokens: Math.min(size.tokens, Math.ceil(text.length / 3) + 8), bytes: Math.min(size.bytes, bytes) };
}
