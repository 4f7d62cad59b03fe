/**
 * Anthropic Messages on the wire (message_start with the input side of the usage, content blocks with their
 * deltas, pings, message_delta with the cumulative output count, message_stop), read by `@anthropic-ai/sdk`'s
 * `messages.stream(...).finalMessage()`.
 */
import type { Answer } from './answerArb';
import { sse, tokenCountOf, type Delivered, type RouteCase } from './delivered';
import { anthropicOracle } from './sdkClients';

type Payload = { type: string } & Record<string, unknown>;

/** 0: cache read and write on message_start; 1: no cache fields; 2: message_delta repeats the whole usage. */
function startUsage(a: Answer): Record<string, unknown> {
  const { prompt, cached, cacheWrite } = a.counts;
  return a.usageShape === 1 ? { input_tokens: prompt, output_tokens: 1 } : { input_tokens: prompt - cached, cache_read_input_tokens: cached, cache_creation_input_tokens: cacheWrite, output_tokens: 1 };
}

function deltaUsage(a: Answer): Record<string, unknown> {
  const { output } = a.counts;
  return a.usageShape === 2 ? { ...startUsage(a), output_tokens: output } : { output_tokens: output };
}

export function messagesEvents(a: Answer): Payload[] {
  const events: Payload[] = [
    { type: 'message_start', message: { id: 'msg_diff', type: 'message', role: 'assistant', model: 'diff-messages', content: [], stop_reason: null, stop_sequence: null, usage: startUsage(a) } },
    { type: 'ping' },
  ];
  a.blocks.forEach((block, index) => {
    if (block.kind === 'thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of block.pieces) events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.kind === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of block.pieces) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      for (const partial_json of block.fragments) events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  const stop = a.blocks.some((b) => b.kind === 'call') ? 'tool_use' : a.finish === 'length' ? 'max_tokens' : 'end_turn';
  events.push({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: deltaUsage(a) });
  events.push({ type: 'message_stop' });
  return events;
}

export const messagesFramesOf = (events: Payload[]): string => events.map((e) => sse(e, e.type)).join('');

export function messagesUsage(raw: Record<string, unknown>): Delivered['usage'] {
  const read = tokenCountOf(raw.cache_read_input_tokens);
  const write = tokenCountOf(raw.cache_creation_input_tokens);
  return { context: tokenCountOf(raw.input_tokens) + read + write, cached: read, cacheWrite: write, completion: tokenCountOf(raw.output_tokens) };
}

export async function messagesOracle(origin: string): Promise<Delivered> {
  const final = await anthropicOracle(origin).messages.stream({ model: 'diff-messages', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
  let text = '';
  let thinking = '';
  const calls: Delivered['calls'] = [];
  for (const block of final.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') thinking += block.thinking;
    else if (block.type === 'tool_use') calls.push({ name: block.name, input: block.input });
  }
  return { text, thinking, calls, usage: messagesUsage(final.usage as unknown as Record<string, unknown>) };
}

export const MESSAGES_CASE: RouteCase = { route: 'messages', usageShapes: 3, noUsage: false, encode: (a) => messagesFramesOf(messagesEvents(a)), oracle: messagesOracle };
