/**
 * One attempt at an answer: send the prepared body, map the SSE stream to events, hand every shown event to the
 * caller at once, and say what happened (usage, whether it completed, what it showed). No retry, no
 * accounting: the engine decides those from the result, or from the error and `shown`.
 */
import type { Logger } from '../log';
import { newRequestId } from '../session/sessionId';
import { StreamMapper } from '../stream/streamMapper';
import type { NormalizedUsage, StreamEvent } from '../types';
import { streamChat, type ChatRequestBody, type Endpoint } from './chatTransport';
import { EmptyAnswerError } from './streamErrors';
import { incompleteLine, malformedLine, outputLimitLine } from './streamLog';

/** What this attempt has already put in front of the user; filled in while it streams, read after a throw. */
export interface Shown {
  /** Text or a tool call: a retry would show them twice. */
  answer: boolean;
  /** Only thinking: no answer yet, but a retry would repeat the thinking. */
  thinking: boolean;
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
  /** A finish reason or [DONE] arrived. */
  complete: boolean;
  /** Thinking text and tool-call ids of the answer (for the reasoning memory). */
  thinking: string;
  callIds: string[];
}

/** Streams one answer into onEvent (usage excluded: it is returned). Throws EmptyAnswerError for no text and no tool call. */
export async function streamAnswer(options: AttemptOptions, onEvent: (event: StreamEvent) => void, shown: Shown): Promise<StreamedAnswer> {
  const mapper = new StreamMapper();
  const answer: StreamedAnswer = { complete: false, thinking: '', callIds: [] };
  const emit = (events: StreamEvent[]): void => {
    for (const event of events) {
      if (event.kind === 'usage') {
        answer.usage = event.usage;
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
  const malformed: string[] = [];
  let sawDone = false;
  try {
    for await (const item of streamChat(options.endpoint, options.body, send)) {
      if (item.kind === 'chunk') emit(mapper.push(item.chunk));
      else if (item.kind === 'done') sawDone = true;
      else malformed.push(item.raw);
    }
  } finally {
    // Skipped payloads are worth a line whether or not the stream then completed.
    if (malformed.length > 0) options.log.warn(malformedLine(options.modelId, malformed.length, malformed[0]));
  }
  emit(mapper.finish());
  const { textChars, toolCalls, finishReason } = mapper.summary;
  if (textChars === 0 && toolCalls === 0) throw new EmptyAnswerError(finishReason, sawDone);
  answer.complete = !!finishReason || sawDone;
  if (!answer.complete) options.log.warn(incompleteLine(options.modelId));
  if (finishReason === 'length') options.log.warn(outputLimitLine(options.modelId));
  return answer;
}
