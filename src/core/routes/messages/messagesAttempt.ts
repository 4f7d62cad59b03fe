/**
 * The Messages route's per-attempt rules (core/routes/route.ts AttemptRules): `max_tokens` is required by the
 * format, so it is never dropped; a thinking budget forbids `temperature`; a refused `ttl` is dropped from the
 * cache breakpoints, where it lives; warming asks for one token, except with a thinking budget.
 */
import { breakpointPrefixMs, withoutTtl } from '../cacheLifetime';
import type { AttemptRules } from '../route';
import { isRecord } from '../../util/jsonFields';

export const messagesAttempt: AttemptRules = {
  required: ['model', 'messages', 'max_tokens'],
  quirks: (effort) => (isRecord(effort?.thinking) && effort.thinking.type === 'enabled' ? ['temperature'] : []),
  dropNested: (body, omitted) => (omitted.has('ttl') ? withoutTtl(body) : body),
  warming: {
    // A thinking budget needs max_tokens above it, and changing the thinking settings would invalidate the cache.
    body: (body) => (isRecord(body.thinking) && body.thinking.type === 'enabled' ? undefined : { ...body, max_tokens: 1 }),
    prefixLifetimeMs: breakpointPrefixMs,
  },
};
