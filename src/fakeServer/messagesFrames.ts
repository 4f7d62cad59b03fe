/**
 * A scripted reply as Anthropic's Messages stream: message_start (with the prompt's usage), a ping, then
 * per block start / deltas / stop — signed thinking, text, tool_use with its input split across
 * input_json_delta — then message_delta (stop reason, cumulative output usage), message_stop and OpenCode's
 * cost ping.
 */
import { createHash } from 'node:crypto';
import { splitIntoChunks, DEFAULT_CHUNK_SIZE } from './replies';
import { costFrame, namedFrame } from './routeErrors';
import type { NativeFramesInput } from './responsesFrames';

type Payload = { type: string } & Record<string, unknown>;

/** A stable fake signature for a thinking text, so a passed-back block can be checked. */
export function fakeSignature(thinking: string): string {
  return `sig_${createHash('sha256').update(thinking).digest('base64url')}`;
}

const STOP_REASONS: Record<string, string> = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' };

export function messagesFrames(input: NativeFramesInput & { outputTokens: number }): string[] {
  const { reply } = input;
  const size = reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const events: Payload[] = [
    { type: 'message_start', message: { id: input.id, type: 'message', role: 'assistant', model: input.model, content: [], stop_reason: null, usage: { ...input.usage, output_tokens: 1 } } },
    { type: 'ping' },
  ];
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]): void => {
    events.push({ type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
    index++;
  };
  if (reply.reasoning) {
    const deltas: Record<string, unknown>[] = splitIntoChunks(reply.reasoning, size).map((thinking) => ({ type: 'thinking_delta', thinking }));
    deltas.push({ type: 'signature_delta', signature: fakeSignature(reply.reasoning) });
    block({ type: 'thinking', thinking: '', signature: '' }, deltas);
  }
  if (reply.text) block({ type: 'text', text: '' }, splitIntoChunks(reply.text, size).map((text) => ({ type: 'text_delta', text })));
  for (const call of reply.toolCalls ?? []) {
    block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, splitIntoChunks(call.arguments, size).map((partial_json) => ({ type: 'input_json_delta', partial_json })));
  }
  const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
  events.push({ type: 'message_delta', delta: { stop_reason: STOP_REASONS[finish] ?? finish, stop_sequence: null }, usage: { output_tokens: input.outputTokens } });
  events.push({ type: 'message_stop' });
  return [...events.map(namedFrame), costFrame(input.cost)];
}
