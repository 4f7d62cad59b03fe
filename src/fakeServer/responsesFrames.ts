/**
 * A scripted reply as the Responses stream OpenAI (and OpenCode's "openai" format) sends: reasoning item
 * (summary deltas, then the full item with encrypted_content), message item (text deltas), function_call
 * items (arguments split across deltas, identity only on `.added`), then response.completed with usage and
 * OpenCode's cost ping. Frame i of the result is one SSE event, so faults can cut it anywhere.
 */
import { createHash } from 'node:crypto';
import type { ScriptedReply } from './types';
import { splitIntoChunks, DEFAULT_CHUNK_SIZE } from './replies';
import { costFrame, namedFrame } from './routeErrors';

export interface NativeFramesInput {
  id: string;
  model: string;
  reply: ScriptedReply;
  usage: object;
  cost: number;
  /** Responses: the request asked for `include: ["reasoning.encrypted_content"]` (OpenAI sends it only then). */
  encrypted?: boolean;
}

type Payload = { type: string } & Record<string, unknown>;

/** What the fake "encrypts": stable for the same reasoning, so a passed-back item can be checked. */
export function fakeEncrypted(reasoning: string): string {
  return `enc_${createHash('sha256').update(reasoning).digest('base64url').slice(0, 24)}_${Buffer.from(reasoning).toString('base64url')}`;
}

export function responsesFrames(input: NativeFramesInput): string[] {
  const { reply } = input;
  const size = reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const events: Payload[] = [{ type: 'response.created', response: { id: input.id, status: 'in_progress', model: input.model, output: [] } }];
  const output: Record<string, unknown>[] = [];
  const item = (added: Record<string, unknown>, deltas: Payload[], done: Record<string, unknown>): void => {
    const output_index = output.length;
    events.push({ type: 'response.output_item.added', output_index, item: added }, ...deltas.map((d) => ({ ...d, output_index })));
    events.push({ type: 'response.output_item.done', output_index, item: done });
    output.push(done);
  };
  if (reply.reasoning) {
    const id = `rs_${input.id}`;
    const deltas = splitIntoChunks(reply.reasoning, size).map((delta) => ({ type: 'response.reasoning_summary_text.delta', item_id: id, summary_index: 0, delta }));
    const done: Record<string, unknown> = { type: 'reasoning', id, summary: [{ type: 'summary_text', text: reply.reasoning }] };
    if (input.encrypted !== false) done.encrypted_content = fakeEncrypted(reply.reasoning);
    item({ type: 'reasoning', id, summary: [] }, deltas, done);
  }
  if (reply.text) {
    const id = `msg_${input.id}`;
    const deltas = splitIntoChunks(reply.text, size).map((delta) => ({ type: 'response.output_text.delta', item_id: id, content_index: 0, delta }));
    const content = [{ type: 'output_text', text: reply.text, annotations: [] }];
    item({ type: 'message', id, role: 'assistant', status: 'in_progress', content: [] }, deltas, { type: 'message', id, role: 'assistant', status: 'completed', content });
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    const id = `fc_${input.id}_${i}`;
    const base = { type: 'function_call', id, call_id: call.id, name: call.name };
    const deltas: Payload[] = splitIntoChunks(call.arguments, size).map((delta) => ({ type: 'response.function_call_arguments.delta', item_id: id, delta }));
    deltas.push({ type: 'response.function_call_arguments.done', item_id: id, arguments: call.arguments });
    item({ ...base, arguments: '', status: 'in_progress' }, deltas, { ...base, arguments: call.arguments, status: 'completed' });
  });
  const incomplete = reply.finishReason === 'length';
  const response = { id: input.id, model: input.model, status: incomplete ? 'incomplete' : 'completed', output, usage: input.usage, ...(incomplete ? { incomplete_details: { reason: 'max_output_tokens' } } : {}) };
  events.push({ type: incomplete ? 'response.incomplete' : 'response.completed', response });
  return [...events.map((event, sequence_number) => namedFrame({ ...event, sequence_number })), costFrame(input.cost)];
}

export function responsesUsageObject(promptTokens: number, cachedTokens: number, completionTokens: number, reasoningTokens: number): object {
  return {
    input_tokens: promptTokens,
    input_tokens_details: { cached_tokens: cachedTokens },
    output_tokens: completionTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: promptTokens + completionTokens,
  };
}
