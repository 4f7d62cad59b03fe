/**
 * What a request is for. Every request the extension sends carries one, set where it starts (the provider, the
 * inline provider, the commit command, the warmer, the image describer), and each after-request hook asks this
 * table instead of guessing from the request's shape: an inline suggestion warms nothing, never becomes the status
 * bar's last chat request and never appears in the session report as a conversation.
 */
export type RequestPurpose =
  /** A turn of a conversation (VS Code's agent, `@opencode`, any `vscode.lm` caller's turn). Not the `chat` route. */
  | 'conversation'
  /** A chat title or summary VS Code asks for beside a conversation (sideRequest.ts). */
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
