/**
 * Some models answer 400 to a parameter they do not support (a reasoning model and `temperature`, a gateway and
 * `stream_options`, a strict endpoint and `reasoning_content` on a message). Such a **refused parameter** is left out
 * for that model from then on and the request is sent again: the user never sees the 400. Only parameters we add
 * ourselves can be dropped, and only when the error names one.
 */
import { APIError } from 'openai';
import { routeById } from '../routes/registry/registry';
import { DROPPABLE_PARAMS, type DroppableParam } from '../routes/droppableParams';
import type { RouteId } from '../routeId';


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
