/**
 * The same answer written in each route's wire format, for rules that must hold on every route
 * (answer.rules.test.ts, answer.http.test.ts, answer.waits.http.test.ts): text, parallel tool calls, a usage
 * object, a finish, the end marker, a keep-alive and OpenCode's cost frame. Hand-written from each format's
 * documentation (docs/routes.md), not from the readers, so a reader that misreads its format fails.
 */
import type { RouteId } from '../../core/routeId';

export interface WireCall {
  id: string;
  name: string;
  /** The arguments as JSON text (may be broken on purpose). */
  args: string;
}

/** Token counts, as numbers or as the numeric strings some gateways send. */
export interface WireUsage {
  prompt: number | string;
  cached: number | string;
  output: number | string;
}

export interface WireScript {
  id: RouteId;
  /** What opens the answer (Messages: message_start, which carries the prompt-side usage). */
  start(usage?: WireUsage | 'empty'): string[];
  text(text: string): string[];
  refusal?(text: string): string[];
  calls(calls: readonly WireCall[]): string[];
  /** The finish (stop, a tool-call stop, or a provider's filter) with the answer's usage, then the end marker. */
  done(reason: 'stop' | 'tool' | 'filter', usage?: WireUsage | 'empty'): string[];
  keepAlive(): string;
  cost(usd: string): string;
  /** The format's own error object (not `event: error`). */
  errorObject(message: string): string;
}

const data = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
const named = (payload: { type: string }): string => `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;

const chat: WireScript = {
  id: 'chat',
  start: () => [],
  text: (text) => [data({ choices: [{ index: 0, delta: { content: text } }] })],
  refusal: (text) => [data({ choices: [{ index: 0, delta: { content: null, refusal: text } }] })],
  // The name repeated whole on a second fragment, as some gateways do.
  calls: (calls) => calls.flatMap((c, index) => [
    data({ choices: [{ index: 0, delta: { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] } }] }),
    data({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { name: c.name, arguments: c.args } }] } }] }),
  ]),
  done: (reason, usage) => [
    data({ choices: [{ index: 0, delta: {}, finish_reason: reason === 'tool' ? 'tool_calls' : reason === 'filter' ? 'content_filter' : 'stop' }] }),
    ...(usage ? [data({ choices: [], usage: usage === 'empty' ? {} : { prompt_tokens: usage.prompt, completion_tokens: usage.output, prompt_tokens_details: { cached_tokens: usage.cached } } })] : []),
    'data: [DONE]\n\n',
  ],
  keepAlive: () => data({ choices: [] }),
  cost: (usd) => data({ choices: [], cost: usd }),
  errorObject: (message) => data({ error: { message } }),
};

const responsesUsage = (u: WireUsage | 'empty') => (u === 'empty' ? {} : { input_tokens: u.prompt, input_tokens_details: { cached_tokens: u.cached }, output_tokens: u.output });

const responses: WireScript = {
  id: 'responses',
  start: () => [named({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } } as { type: string })],
  text: (text) => [named({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: text } as { type: string })],
  refusal: (text) => [named({ type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: text } as { type: string })],
  calls: (calls) => calls.flatMap((c, i) => {
    const output_index = i + 1;
    const item = { type: 'function_call', id: `fc_${i}`, call_id: c.id, name: c.name, arguments: '' };
    return [
      named({ type: 'response.output_item.added', output_index, item } as { type: string }),
      named({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta: c.args } as { type: string }),
      named({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: c.args } as { type: string }),
      named({ type: 'response.output_item.done', output_index, item: { ...item, arguments: c.args } } as { type: string }),
    ];
  }),
  done: (reason, usage) => [
    named({
      type: reason === 'filter' ? 'response.incomplete' : 'response.completed',
      response: { id: 'resp_1', status: reason === 'filter' ? 'incomplete' : 'completed', output: [], ...(reason === 'filter' ? { incomplete_details: { reason: 'content_filter' } } : {}), ...(usage ? { usage: responsesUsage(usage) } : {}) },
    } as { type: string }),
  ],
  keepAlive: () => named({ type: 'response.in_progress', response: { id: 'resp_1' } } as { type: string }),
  cost: (usd) => `event: ping\ndata: ${JSON.stringify({ type: 'ping', cost: usd })}\n\n`,
  errorObject: (message) => named({ type: 'error', code: 'server_error', message } as { type: string }),
};

const minus = (a: number | string, b: number | string): number | string => (typeof a === 'string' || typeof b === 'string' ? String(Number(a) - Number(b)) : a - b);

const messages: WireScript = {
  id: 'messages',
  start: (usage) => [named({ type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [], usage: usage === 'empty' ? {} : usage ? { input_tokens: minus(usage.prompt, usage.cached), cache_read_input_tokens: usage.cached, output_tokens: 1 } : undefined } } as { type: string })],
  text: (text) => [
    named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as { type: string }),
    named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } as { type: string }),
    named({ type: 'content_block_stop', index: 0 } as { type: string }),
  ],
  calls: (calls) => calls.flatMap((c, i) => [
    named({ type: 'content_block_start', index: i + 1, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } } as { type: string }),
    named({ type: 'content_block_delta', index: i + 1, delta: { type: 'input_json_delta', partial_json: c.args } } as { type: string }),
    named({ type: 'content_block_stop', index: i + 1 } as { type: string }),
  ]),
  done: (reason, usage) => [
    named({ type: 'message_delta', delta: { stop_reason: reason === 'tool' ? 'tool_use' : reason === 'filter' ? 'refusal' : 'end_turn' }, usage: usage === 'empty' ? {} : usage ? { output_tokens: usage.output } : undefined } as { type: string }),
    named({ type: 'message_stop' }),
  ],
  keepAlive: () => named({ type: 'ping' }),
  cost: (usd) => `event: ping\ndata: ${JSON.stringify({ type: 'ping', cost: usd })}\n\n`,
  errorObject: (message) => named({ type: 'error', error: { type: 'overloaded_error', message } } as { type: string }),
};

const geminiUsage = (u: WireUsage | 'empty') => (u === 'empty' ? {} : { promptTokenCount: u.prompt, cachedContentTokenCount: u.cached, candidatesTokenCount: u.output });

const gemini: WireScript = {
  id: 'gemini',
  start: () => [],
  text: (text) => [data({ candidates: [{ content: { role: 'model', parts: [{ text }] } }], responseId: 'r1' })],
  calls: (calls) => [data({ candidates: [{ content: { role: 'model', parts: calls.map((c) => ({ functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: parsedOr(c.args) } })) } }], responseId: 'r1' })],
  done: (reason, usage) => [data({ candidates: [{ content: { role: 'model', parts: [] }, finishReason: reason === 'filter' ? 'SAFETY' : 'STOP' }], ...(usage ? { usageMetadata: geminiUsage(usage) } : {}), responseId: 'r1' })],
  keepAlive: () => data({ candidates: [{ content: { role: 'model', parts: [] } }] }),
  cost: (usd) => data({ type: 'ping', cost: usd }),
  errorObject: (message) => data({ error: { code: 503, message, status: 'UNAVAILABLE' } }),
};

/** Gemini sends arguments as an object; broken JSON text stays text (the reader must refuse it). */
function parsedOr(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export const WIRE_SCRIPTS: readonly WireScript[] = [chat, responses, messages, gemini];

export function wireOf(id: RouteId): WireScript {
  return WIRE_SCRIPTS.find((w) => w.id === id) as WireScript;
}
