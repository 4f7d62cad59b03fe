/**
 * What a route's stream reader gives back per SSE event and at the end; the routes implement it (each route's
 * `newReader`), the engine's transport drives it, and core/answer/answerReader.ts is the shared implementation.
 */
import type { StreamEvent } from '../types';
import type { AnswerEnding, AnswerResult } from './assembler';
import type { AssistantLayout } from './nativeReplay';

/** What one SSE event meant, beyond its StreamEvents. */
export interface ReadResult {
  events: StreamEvent[];
  /** The stream carried an error (Responses `error`/`response.failed`, Messages `error`, chat `{error}`). */
  error?: Record<string, unknown>;
  /** The payload was not JSON (the caller skips and logs it, as on the chat route). */
  malformed?: string;
  /** Chat: the chunk had fields of the wrong type, dropped (chunkShape.ts); the raw payload, for the log. */
  wrongShape?: string;
  /** The answer's end marker ([DONE], response.completed/incomplete, message_stop): after it only the cost frame is read. */
  end?: boolean;
  /** Anything but a keep-alive or a cost frame arrived: the idle timeout starts again (core/answer/assembler.ts). */
  progress?: boolean;
}

export interface StreamReader {
  /** One SSE event: its data (raw text or already-parsed JSON) and its `event:` name when there was one. */
  push(data: unknown, eventName?: string): ReadResult;
  /**
   * A 200 JSON body instead of a stream: the error it carries (any route), or the answer when the route's format
   * has a whole-answer body it reads (chat); undefined when it is neither.
   */
  pushBody(body: Record<string, unknown>): ReadResult | undefined;
  /** The stream ended: flush what is held back. */
  finish(): StreamEvent[];
  /** The stream broke after content was shown: flush held-back text only; unfinished calls are dropped. */
  abandon(): StreamEvent[];
  /** What must be kept to pass this answer back verbatim later (undefined when nothing native arrived). */
  layout(): AssistantLayout | undefined;
  /** What the answer was: usage, cost, finish reason, dropped calls, skipped payloads (core/answer/assembler.ts). */
  result(): AnswerResult;
  /** Whether a finish reason, usage, the end marker and the cost frame arrived: read after every payload, no copy. */
  ending(): AnswerEnding;
}
