/**
 * Valid wire answers with one thing a real provider does that the plain generator leaves out: counts as
 * numeric strings, a tool name repeated whole on every chat fragment, an error frame (with or without a
 * `type`) before or after some text, a refusal. Each returns the body; the caller knows what is expected.
 */
import type { Answer } from './answerArb';
import { encodeChat } from './chatCase';
import { sse } from './delivered';
import { geminiChunks } from './geminiCase';
import { messagesEvents, messagesFramesOf } from './messagesCase';
import { framesOf, responsesEvents } from './responsesCase';
import type { RouteCase } from './delivered';

const USAGE_KEYS = new Set(['usage', 'usageMetadata']);

/** Every number inside a usage object becomes its decimal string (some gateways send counts so). */
function stringCounts(value: unknown, inUsage = false): unknown {
  if (typeof value === 'number') return inUsage ? String(value) : value;
  if (Array.isArray(value)) return value.map((v) => stringCounts(v, inUsage));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringCounts(v, inUsage || USAGE_KEYS.has(k))]));
  return value;
}

/** `body` with its usage counts as numeric strings, frame by frame. */
/**
 * Each `data:` line of an SSE body through `map`. Split on "\n" only: a JS regex in multiline mode also ends lines
 * at U+2028/U+2029, which JSON leaves unescaped inside generated text (a seed that drew one split a payload).
 */
function mapDataLines(body: string, map: (line: string, json: string) => string): string {
  return body.split('\n').map((line) => (line.startsWith('data: ') ? map(line, line.slice('data: '.length)) : line)).join('\n');
}

export function withStringCounts(body: string): string {
  return mapDataLines(body, (line, json) => (json === '[DONE]' ? line : `data: ${JSON.stringify(stringCounts(JSON.parse(json)))}`));
}

/** Chat: every fragment of a call repeats its id and whole name (as some gateways stream them). */
export function chatWithRepeatedNames(a: Answer): string {
  return mapDataLines(encodeChat(a), (line, json) => {
    if (json === '[DONE]') return line;
    const chunk = JSON.parse(json) as { choices: { delta?: { tool_calls?: { index: number; id?: string; type?: string; function: { name?: string } }[] } }[] };
    for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
      const block = a.blocks.filter((b) => b.kind === 'call')[call.index];
      if (block?.kind === 'call') Object.assign(call, { id: block.id, type: 'function', function: { ...call.function, name: block.name } });
    }
    return `data: ${JSON.stringify(chunk)}`;
  });
}

const lastIndexOf = (events: { type: string }[], type: string): number => events.map((e) => e.type).lastIndexOf(type);

/** The frames of a text-only answer up to its last text piece: no finish, no usage, no end. */
export function textSoFar(route: RouteCase['route'], pieces: string[]): string {
  const answer: Answer = { blocks: pieces.length ? [{ kind: 'text', pieces }] : [], finish: 'stop', usageShape: -1, counts: { prompt: 1, cached: 0, cacheWrite: 0, output: 1, thoughts: 0 } };
  if (route === 'chat') return encodeChat(answer).split('\n\n').slice(0, 1 + pieces.length).join('\n\n') + '\n\n';
  if (route === 'responses') {
    const events = responsesEvents(answer);
    return framesOf(events.slice(0, pieces.length ? lastIndexOf(events, 'response.output_text.delta') + 1 : 1));
  }
  if (route === 'messages') {
    const events = messagesEvents(answer);
    return messagesFramesOf(events.slice(0, pieces.length ? lastIndexOf(events, 'content_block_delta') + 1 : 1));
  }
  return geminiChunks(answer).slice(0, pieces.length).map((c) => sse({ ...c, candidates: [{ content: (c.candidates as { content: unknown }[])[0].content, index: 0 }] })).join('');
}

/** The error frame each wire sends, with its own `type` field, or a bare `event: error` whose data has none. */
export function errorFrame(route: RouteCase['route'], message: string, typed: boolean): string {
  if (!typed) return sse({ message }, 'error');
  if (route === 'chat') return sse({ error: { message, type: 'server_error', code: null } });
  if (route === 'responses') return sse({ type: 'error', code: 'server_error', message, param: null }, 'error');
  if (route === 'messages') return sse({ type: 'error', error: { type: 'overloaded_error', message } }, 'error');
  return sse({ error: { code: 503, message, status: 'UNAVAILABLE' } });
}

/** `body` with every usage object emptied (`usage: {}`), as some gateways send on the last frame. */
export function withEmptyUsage(body: string): string {
  return mapDataLines(body, (line, json) => {
    if (json === '[DONE]') return line;
    const frame = JSON.parse(json) as Record<string, unknown> & { response?: Record<string, unknown> };
    for (const holder of [frame, frame.response]) for (const key of USAGE_KEYS) if (holder && holder[key]) holder[key] = {};
    return `data: ${JSON.stringify(frame)}`;
  });
}

/** `body` with every tool call id emptied (Responses `call_id`, Messages `tool_use.id`). */
export function withEmptyCallIds(body: string): string {
  return body.replace(/"call_id":"[^"]*"/g, '"call_id":""').replace(/("type":"tool_use","id":)"[^"]*"/g, '$1""');
}

/** Responses: one message item whose only content is a refusal, streamed in `pieces`. */
export function responsesRefusalEvents(pieces: string[]): ({ type: string } & Record<string, unknown>)[] {
  const refusal = pieces.join('');
  const item_id = 'msg_refusal';
  const part = { type: 'refusal', refusal: '' };
  const done = { type: 'message', id: item_id, role: 'assistant', status: 'completed', content: [{ ...part, refusal }] };
  const response = (status: string, output: unknown[]) => ({ id: 'resp_r', object: 'response', created_at: 1, model: 'diff-responses', status, output, usage: null });
  const events: ({ type: string } & Record<string, unknown>)[] = [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: { ...done, status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', item_id, output_index: 0, content_index: 0, part },
    ...pieces.map((delta) => ({ type: 'response.refusal.delta', item_id, output_index: 0, content_index: 0, delta })),
    { type: 'response.refusal.done', item_id, output_index: 0, content_index: 0, refusal },
    { type: 'response.content_part.done', item_id, output_index: 0, content_index: 0, part: { ...part, refusal } },
    { type: 'response.output_item.done', output_index: 0, item: done },
    { type: 'response.completed', response: response('completed', [done]) },
  ];
  return events.map((event, sequence_number) => ({ ...event, sequence_number }));
}
