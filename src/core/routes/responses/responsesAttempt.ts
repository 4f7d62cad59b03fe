/**
 * The Responses route's per-attempt rules (core/routes/route.ts AttemptRules): the model and the input are required;
 * warming asks for the smallest answer Responses takes (it refuses max_output_tokens below 16).
 */
import { inMemoryPrefixMs } from '../cacheLifetime';
import type { AttemptRules } from '../route';

export const RESPONSES_MIN_OUTPUT = 16;

export const responsesAttempt: AttemptRules = {
  required: ['model', 'input'],
  warming: {
    body: (body, refused) => (refused.has('max_output_tokens') ? { ...body } : { ...body, max_output_tokens: RESPONSES_MIN_OUTPUT }),
    prefixLifetimeMs: inMemoryPrefixMs,
  },
};
