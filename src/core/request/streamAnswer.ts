/**
 * One attempt at an answer: send the prepared body on its route, read the stream through the route's reader (its
 * translation and the one assembler, core/answer/), hand every shown event to the caller at once, and return what
 * happened as a value: what was shown, the answer's result (usage, cost, finish reason, dropped calls) and the
 * failure, if any. No retry, no accounting: the engine decides those from the returned attempt.
 */
import type { Logger } from '../log';
import type { Route } from '../routes/route';
import { newRequestId } from '../session/sessionId';
import type { StreamEvent } from '../types';
import { onceFor } from '../util/onceKeys';
import { redact } from '../util/redact';
import type { Endpoint } from './chatTransport';
import { streamRoute } from './routeTransport';
import { CutAnswerError, EmptyAnswerError } from './streamErrors';
import { brokenCallLine, cutReason, droppedCallsLine, incompleteLine, malformedLine, outputLimitLine, truncationLine, usageAnomalyLine } from './streamLog';
import { type AnswerResult } from '../answer/streamReader';

export interface AttemptOptions {
  endpoint: Endpoint;
  route: Route;
  body: Record<string, unknown>;
  sessionId: string;
  modelId: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** Usage was asked for (false when the model refused the route's way of asking). */
  includeUsage: boolean;
  /** x-opencode-client. */
  client?: string;
  log: Logger;
}

/** What the attempt put in front of the user: a retry would repeat text or a call ('answer'), or the thinking. */
export type ShownSoFar = 'nothing' | 'thinking' | 'answer';

export interface Attempt {
  shown: ShownSoFar;
  /** The answer as the assembler read it; its usage is accounted once by the engine, whether or not the attempt failed. */
  answer: AnswerResult;
  /** The end marker or a finish reason arrived, no tool call was dropped, and the stream did not break. */
  complete: boolean;
  /**
   * Why the attempt failed; undefined when it answered. With `shown: 'answer'` it is a CutAnswerError: the text and
   * calls shown stay with the caller, the request fails after them.
   */
  error?: unknown;
}

/**
 * Streams one answer into onEvent (text, thinking, tool calls; usage is in the result). An empty answer is an
 * EmptyAnswerError in the result. A stream that breaks after text or a tool call was shown fails with a
 * CutAnswerError after what was shown (never a note inside the text), and a [stream] warning says so.
 */
export async function streamAnswer(options: AttemptOptions, onEvent: (event: StreamEvent) => void): Promise<Attempt> {
  const requestId = newRequestId();
  const reader = options.route.newReader(requestId);
  const say = (line: string): void => options.log.warn(redact(line, [options.endpoint.apiKey]));
  const seen = { shown: 'nothing' as ShownSoFar };
  const emit = (events: StreamEvent[]): void => {
    for (const event of events) {
      seen.shown = event.kind !== 'thinking' ? 'answer' : seen.shown === 'answer' ? 'answer' : 'thinking';
      onEvent(event);
    }
  };
  options.route.attempt.beforeSend?.(options.body, options.modelId, options.log);
  try {
    for await (const result of streamRoute(options.endpoint, sendOptions(options, requestId), reader)) emit(result.events);
    emit(reader.finish());
    const answer = reader.result();
    if (answer.textChars === 0 && answer.toolCalls === 0) throw new EmptyAnswerError(answer.finishReason, answer.sawEnd);
    return { shown: seen.shown, answer, complete: ended(answer, options.modelId, say) };
  } catch (error) {
    const shown = seen.shown;
    if (options.signal.aborted || shown !== 'answer') return { shown, answer: reader.result(), complete: false, error };
    emit(reader.abandon());
    say(truncationLine(error, options.modelId));
    return { shown, answer: reader.result(), complete: false, error: new CutAnswerError(redact(cutReason(error), [options.endpoint.apiKey]), error) };
  } finally {
    // Skipped payloads, odd usage and dropped calls are worth a line whether or not the stream then completed.
    reportRead(options, reader.result(), say);
  }
}

function sendOptions(options: AttemptOptions, requestId: string) {
  const { route, body, modelId, sessionId, client, signal, idleTimeoutMs } = options;
  return { route, body, modelId, sessionId, client, signal, idleTimeoutMs, requestId, expectUsage: options.includeUsage, apiKey: options.endpoint.apiKey };
}

/** The stream ended normally with content: complete unless no end came or a call was dropped. */
function ended(answer: AnswerResult, model: string, say: (line: string) => void): boolean {
  const unfinished = answer.dropped.filter((call) => call.why === 'unfinished').length;
  if (unfinished > 0) say(droppedCallsLine(model, unfinished));
  else if (!answer.ended) say(incompleteLine(model));
  if (answer.finishReason === 'length') say(outputLimitLine(model));
  return answer.ended && answer.dropped.length === 0;
}

function reportRead(options: AttemptOptions, answer: AnswerResult, say: (line: string) => void): void {
  const { skipped } = answer;
  if (skipped.first !== undefined) say(malformedLine(options.modelId, skipped.notJson + skipped.wrongShape, skipped.first, skippedKind(skipped)));
  for (const call of answer.dropped) if (call.error && answer.toolCalls + answer.textChars > 0) say(brokenCallLine(options.modelId, call.error));
  reportUsageAnomaly(options, answer.usageAnomaly, say);
}

function skippedKind(skipped: AnswerResult['skipped']): string {
  if (skipped.wrongShape === 0) return 'not JSON';
  return skipped.notJson === 0 ? 'fields of the wrong type' : 'not JSON, or fields of the wrong type';
}

function reportUsageAnomaly(options: AttemptOptions, anomaly: string | undefined, say: (line: string) => void): void {
  if (!anomaly) return;
  // Once per model and usage shape (the anomaly's first word) per activation.
  if (onceFor(options.log).first(`usage-anomaly\u0000${options.modelId}\u0000${anomaly.split(' ')[0]}`)) say(usageAnomalyLine(options.modelId, anomaly));
}
