/**
 * A text-only model answers a request with an image by a 400. Each image is replaced by a short note,
 * always the same words, so the replacement is stable between turns and the cached prefix survives. An
 * image a tool returned becomes the same kind of note at the end of the tool's text.
 */
import type { ChatMessage, ChatPart } from '../types';

export const IMAGE_NOTE = '[image omitted: this model does not accept images]';

/** One line per image a tool returned, after the tool's own text. */
export function toolImageNote(mimeType: string): string {
  return `[image ${mimeType} returned by the tool omitted: this model does not accept images]`;
}

export function withoutImages(messages: readonly ChatMessage[]): { messages: ChatMessage[]; removed: number } {
  let removed = 0;
  const out = messages.map((message) => {
    if (!message.parts.some(carriesImage)) return message;
    return {
      ...message,
      parts: message.parts.map((part): ChatPart => {
        if (part.kind === 'image') {
          removed++;
          return { kind: 'text', text: IMAGE_NOTE };
        }
        if (part.kind !== 'toolResult' || !part.images?.length) return part;
        removed += part.images.length;
        const notes = part.images.map((image) => toolImageNote(image.mimeType));
        return { kind: 'toolResult', callId: part.callId, text: [part.text, ...notes].filter(Boolean).join('\n') };
      }),
    };
  });
  return { messages: out, removed };
}

function carriesImage(part: ChatPart): boolean {
  return part.kind === 'image' || (part.kind === 'toolResult' && (part.images?.length ?? 0) > 0);
}
