/**
 * A text-only model answers a request with an image by a 400. Each image is replaced by a short note,
 * always the same words, so the replacement is stable between turns and the cached prefix survives.
 */
import type { ChatMessage } from '../types';

export const IMAGE_NOTE = '[image omitted: this model does not accept images]';

export function withoutImages(messages: readonly ChatMessage[]): { messages: ChatMessage[]; removed: number } {
  let removed = 0;
  const out = messages.map((message) => {
    if (!message.parts.some((part) => part.kind === 'image')) return message;
    return {
      ...message,
      parts: message.parts.map((part) => {
        if (part.kind !== 'image') return part;
        removed++;
        return { kind: 'text' as const, text: IMAGE_NOTE };
      }),
    };
  });
  return { messages: out, removed };
}
