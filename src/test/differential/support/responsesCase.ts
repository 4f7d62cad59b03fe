/**
 * Responses on the wire (named SSE events with sequence numbers: reasoning summary, message text, function
 * calls, then `response.completed` / `response.incomplete` carrying the whole output and the usage), read by
 * `openai`'s `responses.stream(...).finalResponse()`.
 */
import type { Answer } from './answerArb';
import { sse, tokenCountOf, type Delivered, type RouteCase } from './delivered';
import { openAIOracle } from './sdkClients';

type Payload = { type: string } & Record<string, unknown>;

function usageOf(a: Answer): Record<string, unknown> | null {
  const { prompt, cached, output, thoughts } = a.counts;
  if (a.usageShape < 0) return null;
  const base = { input_tokens: prompt, output_tokens: output, total_tokens: prompt + output };
  return a.usageShape === 0 ? { ...base, input_tokens_details: { cached_tokens: cached }, output_tokens_details: { reasoning_tokens: Math.min(thoughts, output) } } : base;
}

export function responsesEvents(a: Answer, usage: unknown = usageOf(a)): Payload[] {
  const events: Payload[] = [];
  const output: Record<string, unknown>[] = [];
  const response = (status: string, items: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'resp_diff', object: 'response', created_at: 1, model: 'diff-responses', status, output: items, ...extra });
  events.push({ type: 'response.created', response: response('in_progress', [], { usage: null }) });
  a.blocks.forEach((block, output_index) => {
    if (block.kind === 'thinking') {
      const item_id = `rs_${output_index}`;
      const text = block.pieces.join('');
      const done = { type: 'reasoning', id: item_id, summary: [{ type: 'summary_text', text }], encrypted_content: block.signature };
      const part = { type: 'summary_text', text: '' };
      events.push({ type: 'response.output_item.added', output_index, item: { type: 'reasoning', id: item_id, summary: [] } });
      events.push({ type: 'response.reasoning_summary_part.added', item_id, output_index, summary_index: 0, part });
      for (const delta of block.pieces) events.push({ type: 'response.reasoning_summary_text.delta', item_id, output_index, summary_index: 0, delta });
      events.push({ type: 'response.reasoning_summary_text.done', item_id, output_index, summary_index: 0, text });
      events.push({ type: 'response.reasoning_summary_part.done', item_id, output_index, summary_index: 0, part: { ...part, text } });
      events.push({ type: 'response.output_item.done', output_index, item: done });
      output.push(done);
    } else if (block.kind === 'text') {
      const item_id = `msg_${output_index}`;
      const text = block.pieces.join('');
      const part = { type: 'output_text', text: '', annotations: [] };
      const done = { type: 'message', id: item_id, role: 'assistant', status: 'completed', content: [{ ...part, text }] };
      events.push({ type: 'response.output_item.added', output_index, item: { type: 'message', id: item_id, role: 'assistant', status: 'in_progress', content: [] } });
      events.push({ type: 'response.content_part.added', item_id, output_index, content_index: 0, part });
      for (const delta of block.pieces) events.push({ type: 'response.output_text.delta', item_id, output_index, content_index: 0, delta, logprobs: [] });
      events.push({ type: 'response.output_text.done', item_id, output_index, content_index: 0, text, logprobs: [] });
      events.push({ type: 'response.content_part.done', item_id, output_index, content_index: 0, part: { ...part, text } });
      events.push({ type: 'response.output_item.done', output_index, item: done });
      output.push(done);
    } else {
      const item_id = `fc_${output_index}`;
      const args = block.fragments.join('');
      const base = { type: 'function_call', id: item_id, call_id: block.id, name: block.name };
      events.push({ type: 'response.output_item.added', output_index, item: { ...base, arguments: '', status: 'in_progress' } });
      for (const delta of block.fragments) events.push({ type: 'response.function_call_arguments.delta', item_id, output_index, delta });
      events.push({ type: 'response.function_call_arguments.done', item_id, output_index, arguments: args });
      const done = { ...base, arguments: args, status: 'completed' };
      events.push({ type: 'response.output_item.done', output_index, item: done });
      output.push(done);
    }
  });
  const incomplete = a.finish === 'length' && !a.blocks.some((b) => b.kind === 'call');
  const end = incomplete ? response('incomplete', output, { usage, incomplete_details: { reason: 'max_output_tokens' } }) : response('completed', output, { usage });
  events.push({ type: incomplete ? 'response.incomplete' : 'response.completed', response: end });
  return events.map((event, sequence_number) => ({ ...event, sequence_number }));
}

export const framesOf = (events: Payload[]): string => events.map((e) => sse(e, e.type)).join('');

export function responsesUsage(raw: Record<string, unknown> | null | undefined): Delivered['usage'] {
  if (!raw || Object.keys(raw).length === 0) return undefined; // empty usage is no usage
  const details = (raw.input_tokens_details ?? {}) as Record<string, unknown>;
  return { context: tokenCountOf(raw.input_tokens), cached: tokenCountOf(details.cached_tokens), cacheWrite: 0, completion: tokenCountOf(raw.output_tokens) };
}

export async function responsesOracle(origin: string): Promise<Delivered> {
  const final = await openAIOracle(origin).responses.stream({ model: 'diff-responses', input: 'hi' }).finalResponse();
  let text = '';
  let thinking = '';
  const calls: Delivered['calls'] = [];
  for (const item of final.output) {
    if (item.type === 'message') for (const part of item.content) text += part.type === 'output_text' ? part.text : '';
    else if (item.type === 'reasoning') for (const part of item.summary) thinking += part.text;
    else if (item.type === 'function_call') calls.push({ name: item.name, input: JSON.parse(item.arguments) });
  }
  return { text, thinking, calls, usage: responsesUsage(final.usage as unknown as Record<string, unknown> | null) };
}

export const RESPONSES_CASE: RouteCase = { route: 'responses', usageShapes: 2, noUsage: true, encode: (a) => framesOf(responsesEvents(a)), oracle: responsesOracle };
