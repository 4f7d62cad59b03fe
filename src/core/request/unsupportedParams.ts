/**
 * Some models answer 400 to a parameter they do not support (a reasoning model and `temperature`, a gateway and
 * `stream_options`, a strict endpoint and `reasoning_content` on a message). Such a parameter is dropped for that
 * model from then on and the request is sent again: the user never sees the 400. Only parameters we add
 * ourselves can be dropped, and only when the error names one.
 */
import { APIError } from 'openai';
import type { ChatRequestBody } from './chatTransport';

export const DROPPABLE_PARAMS = ['temperature', 'top_p', 'max_tokens', 'stop', 'tool_choice', 'stream_options', 'reasoning_content'] as const;
export type DroppableParam = (typeof DROPPABLE_PARAMS)[number];

const REFUSAL = /unsupported|not supported|unrecognized|unknown|not allowed|extra (inputs|fields)|not permitted|invalid param/i;

/** The parameter a 400 says the model does not accept, if it names one we send. */
export function unsupportedParamOf(error: unknown): DroppableParam | undefined {
  if (!(error instanceof APIError) || error.status !== 400) return undefined;
  const named = (error.error as { param?: unknown } | undefined)?.param ?? (error as { param?: unknown }).param;
  if (typeof named === 'string' && (DROPPABLE_PARAMS as readonly string[]).includes(named)) return named as DroppableParam;
  if (!REFUSAL.test(error.message)) return undefined;
  return DROPPABLE_PARAMS.find((param) => new RegExp(`\\b${param}\\b`).test(error.message));
}

/** The body without the dropped parameters (`stream_options` is the transport's, see SendOptions). */
export function withoutParams(body: ChatRequestBody, dropped: ReadonlySet<string>): ChatRequestBody {
  if (dropped.size === 0) return body;
  const out: ChatRequestBody = { ...body };
  for (const param of ['temperature', 'top_p', 'max_tokens', 'stop', 'tool_choice'] as const) if (dropped.has(param)) delete out[param];
  if (dropped.has('reasoning_content')) {
    out.messages = body.messages.map((m) => {
      if (m.role !== 'assistant' || m.reasoning_content === undefined) return m;
      const { reasoning_content: _dropped, ...rest } = m;
      return rest;
    });
  }
  return out;
}
