/**
 * The chat route's per-attempt rules (core/routes/route.ts AttemptRules). `reasoning_content` lives on assistant
 * messages: it goes back whenever the answer carried it, whatever the model (models with interleaved thinking
 * refuse a tool-call turn without it, and no data can say which ids do), so the only way it leaves is a refusal,
 * which strips it there; usage is asked for through `stream_options`, so a model that refuses it sends none.
 */
import { inMemoryPrefixMs } from '../cacheLifetime';
import type { AttemptRules } from '../route';
import type { WireMessage } from '../../wire/wireTypes';

export const chatAttempt: AttemptRules = {
  required: ['model', 'messages'],
  dropNested(body, omitted) {
    if (!omitted.has('reasoning_content') || !Array.isArray(body.messages)) return body;
    const messages = (body.messages as WireMessage[]).map((m) => {
      if (m.role !== 'assistant' || m.reasoning_content === undefined) return m;
      const { reasoning_content: _dropped, ...rest } = m;
      return rest;
    });
    return { ...body, messages };
  },
  usageAsked: (refused) => !refused.has('stream_options'),
  warming: {
    body: (body, refused) => (refused.has('max_tokens') ? { ...body } : { ...body, max_tokens: 1 }),
    prefixLifetimeMs: inMemoryPrefixMs,
  },
};
