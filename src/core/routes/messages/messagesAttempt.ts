/**
 * The Messages route's per-attempt rules (core/routes/route.ts AttemptRules): `max_tokens` is required by the
 * format, so it is never dropped; a thinking budget forbids `temperature`; a refused `ttl` is dropped from the
 * cache breakpoints, where it lives.
 */
import { isRecord } from '../../util/isRecord';
import { withoutTtl } from '../cacheLifetime';
import type { AttemptRules } from '../route';

export const messagesAttempt: AttemptRules = {
  required: ['model', 'messages', 'max_tokens'],
  quirks: (effort) => (isRecord(effort?.thinking) && effort.thinking.type === 'enabled' ? ['temperature'] : []),
  dropNested: (body, omitted) => (omitted.has('ttl') ? withoutTtl(body) : body),
};
