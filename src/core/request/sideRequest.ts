/**
 * Is this request a side request (a chat title, a summary) rather than a conversation turn? VS Code marks
 * neither in the request options (ProvideLanguageModelChatResponseOptions carries only modelOptions, tools and
 * toolMode), so the shape decides: no tools offered, no tool call or result in the history, and an instruction
 * (a system message, or the start of the first user message) that asks for a title or a summary. Only used to
 * keep the `usage` data part — chat's context indicator — to conversation turns: a one-line title request must
 * not make the indicator drop to almost zero. Everything else (the [usage] line, accounting) is unchanged.
 */
import type { ChatMessage, ChatTool } from '../types';

/** Only the head of an instruction is read: a title prompt states its task up front. */
const HEAD_CHARS = 1_000;
const ASKS_FOR_TITLE_OR_SUMMARY = /\b(title|summary|summari[sz]e|summari[sz]ing)\b/i;

export function isSideRequest(messages: readonly ChatMessage[], tools: readonly ChatTool[]): boolean {
  if (tools.length > 0) return false;
  if (messages.some((m) => m.parts.some((p) => p.kind === 'toolCall' || p.kind === 'toolResult'))) return false;
  const firstUser = messages.find((m) => m.role === 'user');
  const instructions = [...messages.filter((m) => m.role === 'system'), ...(firstUser ? [firstUser] : [])];
  return instructions.some((m) => ASKS_FOR_TITLE_OR_SUMMARY.test(headOf(m)));
}

function headOf(message: ChatMessage): string {
  let text = '';
  for (const part of message.parts) {
    if (part.kind === 'text') text += part.text;
    if (text.length >= HEAD_CHARS) break;
  }
  return text.slice(0, HEAD_CHARS);
}
