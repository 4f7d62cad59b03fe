/**
 * The chat route's per-attempt rules (core/routes/route.ts AttemptRules): `reasoning_content` lives on assistant
 * messages, so refusing it strips it there; it is echoed only for the families that need it; usage is asked for
 * through `stream_options`, so a model that refuses it sends none.
 */
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
  quirks: (entry) => (entry.echoReasoningContent ? [] : ['reasoning_content']),
  usageAsked: (refused) => !refused.has('stream_options'),
};
