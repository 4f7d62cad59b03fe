/**
 * The body of a warming request: the conversation's last request exactly as it was sent (same prefix, same tools,
 * same cache markers), asking for the smallest answer the route allows. Also how long that prefix lives, which
 * decides when to warm it. Pure.
 */
import { BREAKPOINT_LIFETIME } from './lifetimes';
import type { RouteId } from '../routeId';
import { isRecord } from '../util/isRecord';
import { recordField } from '../util/jsonFields';
import { longLivedWrites } from '../routes/cacheLifetime';

/** Responses refuses max_output_tokens below 16. */
export const RESPONSES_MIN_OUTPUT = 16;

/**
 * The last body with its output cut to the minimum, or undefined when that cannot be done without touching what
 * the cache keys on: a Messages body with a thinking budget needs max_tokens above the budget, and changing the
 * thinking settings would invalidate the cached messages. `refused`: parameters the model refused (not re-added).
 */
export function warmingBody(route: RouteId, body: Record<string, unknown>, refused: ReadonlySet<string> = new Set()): Record<string, unknown> | undefined {
  if (route === 'messages') {
    if (isRecord(body.thinking) && body.thinking.type === 'enabled') return undefined;
    return { ...body, max_tokens: 1 };
  }
  if (route === 'responses') return refused.has('max_output_tokens') ? { ...body } : { ...body, max_output_tokens: RESPONSES_MIN_OUTPUT };
  if (route === 'gemini') {
    const config = recordField(body.generationConfig);
    return { ...body, generationConfig: { ...config, maxOutputTokens: 1 } };
  }
  return refused.has('max_tokens') ? { ...body } : { ...body, max_tokens: 1 };
}

/**
 * How long the provider keeps this body's prefix unread, ms; undefined when warming cannot help: OpenAI's 24-hour
 * retention outlives any pause worth warming for.
 */
export function prefixLifetimeMs(route: RouteId, body: Record<string, unknown>): number | undefined {
  if (route === 'messages') return longLivedWrites(body) ? BREAKPOINT_LIFETIME.long : BREAKPOINT_LIFETIME.short;
  if (body.prompt_cache_retention === '24h') return undefined;
  return BREAKPOINT_LIFETIME.inMemory;
}
