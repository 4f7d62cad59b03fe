/**
 * What a route's stream reader gives back per SSE event and at the end, and what the answer was; the routes make
 * one (each route's `newReader`), the engine's transport drives it, and core/answer/answerReader.ts is the shared
 * implementation. Types only.
 */
import type { NormalizedUsage, StreamEvent } from '../types';
import type { AssistantLayout } from './nativeReplay';
import type { DroppedCall } from './toolCalls';

export interface AnswerResult {
  usage?: NormalizedUsage;
  /** What was odd about the usage record, when it contradicted itself: calibration does not learn from it. */
  usageAnomaly?: string;
  /** OpenCode's cost of the request, in US dollars, when its cost frame arrived. */
  cost?: number;
  /** Normalized: stop | tool_calls | length | content_filter | (anything else the model said). */
  finishReason?: string;
  /** The end marker or a finish reason arrived. */
  ended: boolean;
  /** The end marker itself arrived. */
  sawEnd: boolean;
  textChars: number;
  thinkingChars: number;
  toolCalls: number;
  /** The thinking text and the delivered calls' ids (the reasoning memory keeps one under the other). */
  thinking: string;
  callIds: string[];
  /** Calls not delivered, with their names: arguments not JSON, or the stream ended inside them. */
  dropped: DroppedCall[];
  /** Payloads that were not JSON, or JSON with fields of the wrong type; the first one for the log. */
  skipped: { notJson: number; wrongShape: number; first?: string };
  /** Native items to pass back verbatim later, when any arrived. */
  layout?: AssistantLayout;
}

/** What one SSE event meant, beyond its StreamEvents. */
/** A finish reason, usage, the end marker and OpenCode's cost frame: each arrived or not (so far). */
export interface AnswerEnding {
  finishReason: boolean;
  usage: boolean;
  sawEnd: boolean;
  cost: boolean;
}

export interface ReadResult {
  events: StreamEvent[];
  /** The stream carried an error (Responses `error`/`response.failed`, Messages `error`, chat `{error}`). */
  error?: Record<string, unknown>;
  /** The answer's end marker ([DONE], response.completed/incomplete, message_stop): after it only the cost frame is read. */
  end?: boolean;
  /** An event that adds something arrived: the idle timeout starts again (addsSomething, answerReader.ts). */
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
  /** What the answer was: usage, cost, finish reason, dropped calls, skipped payloads, its layout (native items). */
  result(): AnswerResult;
  /** Whether a finish reason, usage, the end marker and the cost frame arrived: read after every payload, no copy. */
  ending(): AnswerEnding;
}
