/**
 * Some models answer 400 to a parameter they do not support (a reasoning model and `temperature`, a gateway and
 * `stream_options`, a strict endpoint and `reasoning_content` on a message). Such a **refused parameter** is left out
 * for that model from then on and the request is sent again: the user never sees the 400. Only parameters we add
 * ourselves can be dropped, and only when the error names one.
 */
import { APIError } from 'openai';
import { routeById } from '../routes/registry';
import type { RouteId } from '../routes/route';

/**
 * Chat's names first; then the native routes' own (Responses max_output_tokens/include/reasoning, Messages
 * stop_sequences); then the thinking-effort fields (sendBody.ts), so a level a model refuses is dropped too; then the
 * cache lifetimes (routes/cacheLifetime.ts: `prompt_cache_retention`, and `ttl` inside Messages' cache_control markers).
 */
export const DROPPABLE_PARAMS = ['temperature', 'top_p', 'max_tokens', 'stop', 'tool_choice', 'stream_options', 'reasoning_content', 'max_output_tokens', 'stop_sequences', 'include', 'reasoning_effort', 'reasoning', 'thinkingConfig', 'thinking', 'output_config', 'prompt_cache_retention', 'ttl'] as const;
export type DroppableParam = (typeof DROPPABLE_PARAMS)[number];

const REFUSAL = /unsupported|not supported|unrecognized|unknown|not allowed|extra (inputs|fields)|not permitted|invalid param/i;

/** The parameter a 400 (or a validator's 422) says the model does not accept, if it names one we send. */
export function refusedParamOf(error: unknown): DroppableParam | undefined {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const named = (error.error as { param?: unknown } | undefined)?.param ?? (error as { param?: unknown }).param;
  if (typeof named === 'string' && (DROPPABLE_PARAMS as readonly string[]).includes(named)) return named as DroppableParam;
  if (!REFUSAL.test(error.message)) return undefined;
  return DROPPABLE_PARAMS.find((param) => new RegExp(`\\b${param}\\b`).test(error.message));
}

/**
 * The body without the omitted parameters (refused ones and the catalogue's quirks), on any route: each route has its own field names, so a name is dropped
 * where the body has it; the route says which fields are never dropped and where it keeps parameters below the top
 * level (core/routes/route.ts AttemptRules).
 */
export function withoutParams(body: Record<string, unknown>, omitted: ReadonlySet<string>, routeId: RouteId): Record<string, unknown> {
  if (omitted.size === 0) return body;
  const rules = routeById(routeId).attempt;
  const out: Record<string, unknown> = { ...body };
  for (const param of omitted) if (!rules.required.includes(param)) delete out[param];
  return rules.dropNested ? rules.dropNested(out, omitted) : out;
}
