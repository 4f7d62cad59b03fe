/**
 * What the fake assistant says: the default reply derived from the request, and a scripted reply turned
 * into the ordered deltas a streaming provider would send.
 */
import type { ScriptedReply } from './types';
import { countTextTokens } from '../cacheModel/valueTokens';
import { isRecord } from '../core/util/jsonFields';

export const DEFAULT_CHUNK_SIZE = 8;
export const DEFAULT_REPLY_TOKENS = 40;

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

export interface ChatDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: ToolCallDelta[];
}

/** Splits by code point so a chunk never ends inside a surrogate pair. */
export function splitIntoChunks(text: string, chunkSize: number): string[] {
  const codePoints = Array.from(text);
  const size = Math.max(1, Math.floor(chunkSize));
  const chunks: string[] = [];
  for (let i = 0; i < codePoints.length; i += size) chunks.push(codePoints.slice(i, i + size).join(''));
  return chunks;
}

/** Reasoning first, then text, then each tool call: a header delta (id, name) and its argument chunks. */
export function replyDeltas(reply: ScriptedReply): ChatDelta[] {
  const size = reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const deltas: ChatDelta[] = [];
  for (const piece of splitIntoChunks(reply.reasoning ?? '', size)) deltas.push({ reasoning_content: piece });
  for (const piece of splitIntoChunks(reply.text ?? '', size)) deltas.push({ content: piece });
  (reply.toolCalls ?? []).forEach((call, index) => {
    deltas.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitIntoChunks(call.arguments, size)) {
      deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  if (deltas.length === 0) deltas.push({ content: '' });
  deltas[0] = { role: 'assistant', ...deltas[0] };
  return deltas;
}

export function finishReasonOf(reply: ScriptedReply): string {
  return reply.finishReason ?? (reply.toolCalls && reply.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

/** Gives every tool call an id; missing ones are derived from `seed` so replays stay deterministic. */
export function withToolCallIds(reply: ScriptedReply, seed: string | number): ScriptedReply {
  if (!reply.toolCalls) return reply;
  const toolCalls = reply.toolCalls.map((call, index) => ({ ...call, id: call.id ?? `call_fake_${seed}_${index}` }));
  return { ...reply, toolCalls };
}

export function completionTokensOf(reply: ScriptedReply): number {
  const toolText = (reply.toolCalls ?? []).map((call) => call.name + call.arguments).join('');
  return countTextTokens(reply.reasoning ?? '') + countTextTokens(reply.text ?? '') + countTextTokens(toolText);
}

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join(' ');
}

function isUserMessage(message: unknown): message is { role: 'user'; content?: unknown } {
  return isRecord(message) && message.role === 'user';
}

export function lastUserText(messages: readonly unknown[]): string {
  const users = messages.filter(isUserMessage);
  return users.length === 0 ? '' : textOfContent(users[users.length - 1].content);
}

/** Each of these is exactly one o200k token when preceded by a space, so n words add n tokens. */
const FILLER_WORDS = ['river', 'stone', 'light', 'green', 'water', 'house', 'paper', 'alpha', 'delta', 'echo'];

/**
 * "Answer <n> to: <first 60 chars of the last user text>" padded with filler words to about `replyTokens`
 * tokens; n is the number of user turns. With images in the request (a vision model), what it saw of each
 * (imageChecks.ts seenImages) follows the question, in brackets: a describing answer that depends on the bytes.
 * The same messages always give the same text.
 */
export function defaultReplyText(messages: readonly unknown[], replyTokens = DEFAULT_REPLY_TOKENS, seen: readonly string[] = []): string {
  const turn = messages.filter(isUserMessage).length;
  const question = lastUserText(messages).replace(/\s+/g, ' ').trim().slice(0, 60);
  let text = `Answer ${turn} to: ${question}${seen.length ? ` [saw ${seen.join(', ')}]` : ''}`;
  let wordIndex = 0;
  // One round is normally exact; the loop only guards against a word merging with the question's last token.
  for (let missing = replyTokens - countTextTokens(text); missing > 0; missing = replyTokens - countTextTokens(text)) {
    for (let i = 0; i < missing; i++) text += ` ${FILLER_WORDS[wordIndex++ % FILLER_WORDS.length]}`;
  }
  return text;
}
