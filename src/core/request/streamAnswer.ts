/**
 * One attempt at an answer: send the prepared body on its route, map the SSE stream to events, hand every shown event to the
 * caller at once, and say what happened (usage, whether it completed, what it showed). No retry, no
 * accounting: the engine decides those from the result, or from the error and `shown`.
 */
import { noteStandIn } from '../routes/gemini/standInNote';
import type { Logger } from '../log';
import type { AssistantLayout } from '../routes/nativeReplay';
import type { ReadResult, Route, StreamReader } from '../routes/route';
import { newRequestId } from '../session/sessionId';
import type { NormalizedUsage, StreamEvent } from '../types';
import { BoundedMap } from '../util/boundedMap';
import type { Endpoint } from './chatTransport';
import { streamRoute } from './routeTransport';
import { EmptyAnswerError } from './streamErrors';
import { droppedCallsLine, incompleteLine, malformedLine, outputLimitLine, truncationLine, usageAnomalyLine } from './streamLog';

/** What this attempt has already put in front of the user; filled in while it streams, read after a throw. */
export interface Shown {
  /** Text or a tool call: a retry would show them twice. */
  answer: boolean;
  /** Only thinking: no answer yet, but a retry would repeat the thinking. */
  thinking: boolean;
  /**
   * The usage received so far and not yet accounted: set while streaming, so that usage which arrived before a
   * throw (a break after only thinking, an empty answer) still reaches the accounting. The engine clears it.
   */
  usage?: NormalizedUsage;
  /** OpenCode's reported cost of this attempt (its cost frame), USD, when it came; accounted with the usage. */
  cost?: number;
}

export interface AttemptOptions {
  endpoint: Endpoint;
  route: Route;
  body: Record<string, unknown>;
  sessionId: string;
  modelId: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** Usage was asked for (false on the chat route when the model refuses stream_options). */
  includeUsage: boolean;
  /** x-opencode-client. */
  client?: string;
  log: Logger;
}

export interface StreamedAnswer {
  /** The end marker or a finish reason arrived, no tool call was dropped, and the stream did not break after content was shown. */
  complete: boolean;
  /** Thinking text and tool-call ids of the answer (for the reasoning memory). */
  thinking: string;
  callIds: string[];
  /** Native items to pass back verbatim later (Responses reasoning, Anthropic thinking), when any arrived. */
  layout?: AssistantLayout;
}

/** Payloads skipped, or chunks with fields dropped, in this answer; one WARN line at the end. */
interface Skipped {
  notJson: number;
  wrongShape: number;
  first?: string;
  /** The end marker arrived (for EmptyAnswerError's detail). */
  sawEnd: boolean;
}

/** Per log (one per extension activation): models whose usage was already reported as inconsistent, once per shape. */
const anomaliesReported = new WeakMap<Logger, BoundedMap<string, true>>();

/**
 * Streams one answer into onEvent (usage excluded: it is kept on `shown` for the accounting, which reports it), on the request's route.
 * Throws EmptyAnswerError for no text and no tool call. A stream that breaks after text or a tool call was shown
 * is not an error here: the answer is kept, with the usage that already arrived, marked incomplete, and a
 * [stream] warning says so.
 */
export async function streamAnswer(options: AttemptOptions, onEvent: (event: StreamEvent) => void, shown: Shown): Promise<StreamedAnswer> {
  const reader = options.route.newReader();
  const answer: StreamedAnswer = { complete: false, thinking: '', callIds: [] };
  const emit = (events: StreamEvent[]): void => {
    for (const event of events) {
      if (event.kind === 'usage') {
        shown.usage = event.usage;
        continue;
      }
      if (event.kind === 'thinking') {
        answer.thinking += event.text;
        shown.thinking = true;
      } else {
        if (event.kind === 'toolCall') answer.callIds.push(event.callId);
        shown.answer = true;
      }
      onEvent(event);
    }
  };
  const skipped: Skipped = { notJson: 0, wrongShape: 0, sawEnd: false };
  if (options.route.id === 'gemini') noteStandIn(options.body, options.modelId, options.log);
  try {
    for await (const result of streamRoute(options.endpoint, sendOptions(options), reader)) {
      if (result.cost !== undefined) shown.cost = result.cost;
      emit(readResult(result, skipped));
    }
    emit(reader.finish());
  } catch (error) {
    if (options.signal.aborted || !shown.answer) throw error;
    options.log.warn(truncationLine(error, options.modelId));
    emit(reader.abandon());
    answer.layout = reader.layout();
    return answer;
  } finally {
    // Skipped payloads and odd usage are worth a line whether or not the stream then completed.
    if (skipped.first !== undefined) options.log.warn(malformedLine(options.modelId, skipped.notJson + skipped.wrongShape, skipped.first, skippedKind(skipped)));
    reportUsageAnomaly(options, reader.summary.usageAnomaly);
  }
  return ended(options, reader, answer, skipped.sawEnd);
}

function sendOptions(options: AttemptOptions) {
  const { route, body, modelId, sessionId, client, signal, idleTimeoutMs } = options;
  return { route, body, modelId, sessionId, client, signal, idleTimeoutMs, requestId: newRequestId(), expectUsage: options.includeUsage };
}

/** The stream ended normally: empty → EmptyAnswerError; else complete unless no end came or a call was dropped. */
function ended(options: AttemptOptions, reader: StreamReader, answer: StreamedAnswer, sawEnd: boolean): StreamedAnswer {
  const { textChars, toolCalls, finishReason, complete, droppedToolCalls } = reader.summary;
  if (textChars === 0 && toolCalls === 0) throw new EmptyAnswerError(finishReason, sawEnd);
  answer.complete = complete && droppedToolCalls === 0;
  answer.layout = reader.layout();
  if (droppedToolCalls > 0) options.log.warn(droppedCallsLine(options.modelId, droppedToolCalls));
  else if (!complete) options.log.warn(incompleteLine(options.modelId));
  if (finishReason === 'length') options.log.warn(outputLimitLine(options.modelId));
  return answer;
}

/** A payload's events; one that is not JSON, or a chunk with fields of the wrong type, is counted. */
function readResult(result: ReadResult, skipped: Skipped): StreamEvent[] {
  if (result.end) skipped.sawEnd = true;
  if (result.malformed !== undefined) {
    skipped.notJson++;
    skipped.first ??= result.malformed;
  }
  if (result.wrongShape !== undefined) {
    skipped.wrongShape++;
    skipped.first ??= result.wrongShape;
  }
  return result.events;
}

function skippedKind(skipped: Skipped): string {
  if (skipped.wrongShape === 0) return 'not JSON';
  return skipped.notJson === 0 ? 'fields of the wrong type' : 'not JSON, or fields of the wrong type';
}

function reportUsageAnomaly(options: AttemptOptions, anomaly: string | undefined): void {
  if (!anomaly) return;
  const key = `${options.modelId}\u0000${anomaly.split(' ')[0]}`;
  const reported = anomaliesReported.get(options.log) ?? new BoundedMap<string, true>(256);
  anomaliesReported.set(options.log, reported);
  if (reported.has(key)) return;
  reported.set(key, true);
  options.log.warn(usageAnomalyLine(options.modelId, anomaly));
}
