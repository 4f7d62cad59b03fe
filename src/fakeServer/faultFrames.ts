/**
 * Route-specific frames for the faults that need the route's own wire (issue 29 items 3 and 4): frames that add
 * nothing to the answer (empty text and thinking deltas, usage-only frames, pings) and a provider error sent in the
 * middle of an answer (Anthropic's `overloaded_error` and each route's equivalent).
 */
import type { FakeRoute } from './types';
import { namedFrame } from './routeErrors';
import { sseFrame } from './sse';
import { geminiFrame } from './geminiFrames';

const USAGE = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };

/** Frames that carry nothing new, in the order they are cycled through. */
export function nothingFrames(route: FakeRoute): string[] {
  switch (route) {
    case 'chat':
      return [
        sseFrame({ id: 'nothing', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: '' }, finish_reason: null }] }),
        sseFrame({ id: 'nothing', object: 'chat.completion.chunk', choices: [], usage: USAGE }),
      ];
    case 'responses':
      return [
        namedFrame({ type: 'response.output_text.delta', item_id: 'msg_nothing', output_index: 0, content_index: 0, delta: '' }),
        namedFrame({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_nothing', output_index: 0, summary_index: 0, delta: '' }),
      ];
    case 'messages':
      return [
        namedFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } }),
        namedFrame({ type: 'ping' }),
        namedFrame({ type: 'message_delta', delta: {}, usage: { output_tokens: 1 } }),
      ];
    case 'gemini':
      return [
        geminiFrame({ usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 } }),
        geminiFrame({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0 }] }),
      ];
  }
}

/** The provider's "overloaded" error as the route streams it mid-answer. */
export function midStreamErrorFrame(route: FakeRoute): string {
  switch (route) {
    case 'chat':
      return sseFrame({ error: { message: 'Overloaded', type: 'overloaded_error' } });
    case 'responses':
      return namedFrame({ type: 'error', code: 'server_error', message: 'Overloaded' });
    case 'messages':
      return namedFrame({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    case 'gemini':
      return geminiFrame({ error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } });
  }
}
