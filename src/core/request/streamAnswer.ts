/**
 * One attempt at an answer: send the prepared body, map the SSE stream to events, hand every shown event to the
 * caller at once, and say what happened (usage, whether it completed, what it showed). No retry, no
 * accounting: the engine decides those from the result, or from the error and `shown`.
 */
import type { Logger } from '../log';
import { newRequestId } from '../session/sessionId';
import { StreamMapper } from '../stream/streamMapper';
import type { NormalizedUsage, StreamEvent } from '../types';
import { BoundedMap } from '../util/boundedMap';
import { streamChat, type ChatRequestBody, type Endpoint, type StreamItem } from './chatTransport';
import { EmptyAnswerError } from './streamErrors';
import { incompleteLine, malformedLine, outputLimitLine, truncationLine, usageAnomalyLine } from './streamLog';

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
}

export interface AttemptOptions {
  endpoint: Endpoint;
  body: ChatRequestBody;
  sessionId: string;
  modelId: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  includeUsage: boolean;
  log: Logger;
}

export interface StreamedAnswer {
  usage?: NormalizedUsage;
  /** A finish reason or [DONE] arrived, and the stream did not break after content was shown. */
  complete: boolean;
  /** Thinking text and tool-call ids of the answer (for the reasoning memory). */
  thinking: string;
  callIds: string[];
}

/** Payloads skipped, or chunks with fields dropped, in this answer; one WARN line at the end. */
interface Skipped {
  notJson: number;
  wrongShape: number;
  first?: string;
}

/** Per log (one per extension activation): models whose usage was already reported as inconsistent, once per shape. */
const anomaliesReported = new WeakMap<Logger, BoundedMap<string, true>>();

/**
 * Streams one answer into onEvent (usage excluded: it is returned, and kept on `shown`). Throws EmptyAnswerError
 * for no text and no tool call. A stream that breaks after text or a tool call was shown is not an error here: the answer is kept,
 * with the usage that already arrived, marked incomplete, and a [stream] warning says so.
 */
export async function streamAnswer(options: AttemptOptions, onEvent: (event: StreamEvent) => void, shown: Shown): Promise<StreamedAnswer> {
  const mapper = new StreamMapper();
  const answer: StreamedAnswer = { complete: false, thinking: '', callIds: [] };
  const emit = (events: StreamEvent[]): void => {
    for (const event of events) {
      if (event.kind === 'usage') {
        answer.usage = event.usage;
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
  const send = { sessionId: options.sessionId, requestId: newRequestId(), signal: options.signal, idleTimeoutMs: options.idleTimeoutMs, includeUsage: options.includeUsage };
  const skipped: Skipped = { notJson: 0, wrongShape: 0 };
  let sawDone = false;
  try {
    for await (const item of streamChat(options.endpoint, options.body, send)) {
      if (item.kind === 'done') sawDone = true;
      else emit(readItem(item, mapper, skipped));
    }
    emit(mapper.finish());
  } catch (error) {
    if (options.signal.aborted || !shown.answer) throw error;
    options.log.warn(truncationLine(error, options.modelId));
    emit(mapper.abandon());
    return answer;
  } finally {
    // Skipped payloads and odd usage are worth a line whether or not the stream then completed.
    if (skipped.first !== undefined) options.log.warn(malformedLine(options.modelId, skipped.notJson + skipped.wrongShape, skipped.first, skippedKind(skipped)));
    reportUsageAnomaly(options, mapper.summary.usageAnomaly);
  }
  const { textChars, toolCalls, finishReason } = mapper.summary;
  if (textChars === 0 && toolCalls === 0) throw new EmptyAnswerError(finishReason, sawDone);
  answer.complete = !!finishReason || sawDone;
  if (!answer.complete) options.log.warn(incompleteLine(options.modelId));
  if (finishReason === 'length') options.log.warn(outputLimitLine(options.modelId));
  return answer;
}

/** A chunk's events; a payload that is not JSON, or a chunk with fields of the wrong type, is counted. */
function readItem(item: Exclude<StreamItem, { kind: 'done' }>, mapper: StreamMapper, skipped: Skipped): StreamEvent[] {
  if (item.kind === 'malformed') {
    skipped.notJson++;
    skipped.first ??= item.raw;
    return [];
  }
  if (item.raw !== undefined) {
    skipped.wrongShape++;
    skipped.first ??= item.raw;
  }
  return mapper.push(item.chunk);
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
