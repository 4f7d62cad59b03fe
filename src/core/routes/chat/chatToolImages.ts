/**
 * Chat Completions tool messages carry text only (OpenAI's `tool` content is a string or text parts), so the
 * images a tool returned go in one user message right after the run of tool messages they came with (a user
 * message between two tool messages would break the call/result pairing). Its words are fixed and name the
 * call, so the message is the same bytes on every turn.
 */
import type { WireContentPart, WireMessage } from '../../wire/wireTypes';

export function toolImagesNote(callId: string): string {
  return `The image(s) returned by tool call ${callId}:`;
}

export function withToolImagesAsUser(messages: readonly WireMessage[]): WireMessage[] {
  if (!messages.some((m) => m.role === 'tool' && m.images?.length)) return messages as WireMessage[];
  const out: WireMessage[] = [];
  let pending: WireContentPart[] = [];
  const flush = (): void => {
    if (pending.length > 0) out.push({ role: 'user', content: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    if (message.role === 'tool' && message.images?.length) {
      const { images, ...text } = message;
      out.push(text);
      pending.push({ type: 'text', text: toolImagesNote(message.tool_call_id) }, ...images);
    } else out.push(message);
  }
  flush();
  return out;
}
