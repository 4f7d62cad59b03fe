/**
 * What a request is for. Every request the extension sends carries one, set where it starts (the provider, the
 * inline provider, the commit command, the warmer, the image describer), and each after-request hook asks this
 * table instead of guessing from the request's shape: an inline suggestion or a commit message warms nothing, is not
 * recorded, never becomes the status bar's last request, never appears in the session report and never ticks the
 * walkthrough (docs/report.md "What enters the report").
 *
 * A side request (a chat title, a summary) is the one purpose told by shape (isSideRequest below): VS Code marks
 * neither in the request options (ProvideLanguageModelChatResponseOptions carries only modelOptions, tools and
 * toolMode), so no tools offered, no tool call or result in the history, and an instruction (a system message, or
 * the start of the first user message) that asks for a title or a summary make one. Besides the table, it keeps the
 * `usage` data part — chat's context indicator — to conversation turns: a one-line title request must not make the
 * indicator drop to almost zero.
 */
import type { ChatMessage, ChatTool } from '../types';

export type RequestPurpose =
  /** A turn of a conversation (VS Code's agent, `@opencode`, any `vscode.lm` caller's turn). Not the `chat` route. */
  | 'conversation'
  /** A chat title or summary VS Code asks for beside a conversation (isSideRequest below). */
  | 'side'
  /** An inline (ghost-text) suggestion. */
  | 'inline'
  /** A commit message for Source Control. */
  | 'commit'
  /** A warming request: a conversation's last prefix again, the smallest answer (core/warming). */
  | 'warming'
  /** An image described by a vision model for a model without image input. */
  | 'describe';

/** What one purpose feeds after it was accounted. The `[usage]` line is written for every purpose. */
export interface PurposeFeeds {
  /** The conversation's pause starts (cache warming, when on). */
  warming: boolean;
  /** The request log: the status bar's last request, the session report's conversations and dollars. */
  requestLog: boolean;
  /** The request recording (opencode.recordRequests). */
  recording: boolean;
  /** The walkthrough's "an OpenCode model has answered" step. */
  walkthrough: boolean;
}

const NONE: PurposeFeeds = { warming: false, requestLog: false, recording: false, walkthrough: false };

export const PURPOSE_FEEDS: Readonly<Record<RequestPurpose, PurposeFeeds>> = {
  conversation: { warming: true, requestLog: true, recording: true, walkthrough: true },
  // A title request is not a conversation: it would be a report entry named by the title prompt.
  side: { ...NONE, walkthrough: true },
  inline: NONE,
  commit: NONE,
  warming: NONE,
  describe: NONE,
};

export function feeds(purpose: RequestPurpose): PurposeFeeds {
  return PURPOSE_FEEDS[purpose];
}

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
