/**
 * The ways an answer can go wrong after the HTTP request itself succeeded. Each carries what the log and
 * the user-facing sentence need; none carries request headers, so none can carry the API key.
 */

/** No data arrived for the idle timeout (opencode.streamIdleTimeoutSeconds). */
export class StreamIdleTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no data from the model for ${formatDuration(ms)}`);
    this.name = 'StreamIdleTimeoutError';
  }
}

/** The connection broke while the answer was streaming (socket closed, reset, body read failed). */
export class StreamInterruptedError extends Error {
  constructor(readonly causeText: string) {
    super(`the connection closed in the middle of the answer (${causeText})`);
    this.name = 'StreamInterruptedError';
  }

  static from(error: unknown): StreamInterruptedError {
    if (!(error instanceof Error)) return new StreamInterruptedError(String(error));
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new StreamInterruptedError(`${error.message}${cause}`);
  }
}

/**
 * The answer broke off after some of it was shown (a broken connection, a stall, a provider error mid-stream):
 * the text that arrived stays with the caller, and the request fails with this (issue 29 item 4). Never retried:
 * a retry would show the text twice.
 */
export class CutAnswerError extends Error {
  constructor(
    /** Why, in the user's words (streamLog.ts cutReason). */
    readonly reason: string,
    readonly cutBy: unknown,
  ) {
    super(`the answer was cut off: ${reason}`);
    this.name = 'CutAnswerError';
  }
}

/** A 200 answer that is a web page, not a model's answer (a base URL pointing at a website or a login portal). */
export class NotAnAnswerError extends Error {
  constructor(
    readonly contentType: string,
    readonly excerpt: string,
  ) {
    super(`the endpoint answered with ${contentType} instead of a model's answer; check the opencode.baseUrl setting ("${excerpt}")`);
    this.name = 'NotAnAnswerError';
  }
}

/** The stream ended normally but held no text and no tool call. */
export class EmptyAnswerError extends Error {
  constructor(
    readonly finishReason: string | undefined,
    readonly sawDone: boolean,
  ) {
    super(`the stream ended with no text and no tool call (finish_reason=${finishReason ?? 'none'}, [DONE] ${sawDone ? 'seen' : 'missing'})`);
    this.name = 'EmptyAnswerError';
  }

  /** A retry cannot change these: the model hit its output limit or a filter stopped it. */
  get final(): boolean {
    return this.finishReason === 'length' || this.finishReason === 'content_filter';
  }
}

export function formatDuration(ms: number): string {
  return ms >= 1_000 ? `${Math.round(ms / 1_000)} s` : `${ms} ms`;
}
