/**
 * Chat Completions (`/chat/completions`, OpenCode's "oa-compat" format): the route every model took before
 * routes existed. The body and the stream mapping are the existing ones (core/convert, core/stream); this
 * only puts them behind the Route interface.
 */
import { toWireToolChoice } from '../../convert/toWireTools';
import { frameOf, frameOfJson, type StreamFrame } from '../../stream/streamFrame';
import { StreamMapper } from '../../stream/streamMapper';
import type { StreamEvent } from '../../types';
import { isRecord } from '../../util/isRecord';
import { bearerHeaders } from '../headers';
import type { BodyInput, ReadResult, Route, StreamReader, StreamSummary } from '../route';
import { samplingFields } from '../sampling';

export const chatRoute: Route = {
  id: 'chat',
  path: '/chat/completions',
  headers: bearerHeaders,
  buildBody: buildChatBody,
  newReader: () => new ChatReader(),
};

/** `messages` last, as on every route: a longer history only appends bytes. */
export function buildChatBody(input: BodyInput): Record<string, unknown> {
  const body: Record<string, unknown> = { model: input.modelId };
  if (input.tools.length > 0) body.tools = input.tools;
  const toolChoice = input.toolChoice && toWireToolChoice(input.toolChoice, input.tools.length);
  if (toolChoice) body.tool_choice = toolChoice;
  Object.assign(body, samplingFields(input.options, { maxTokens: 'max_tokens', stop: true }));
  body.stream = true;
  if (input.includeUsage !== false) body.stream_options = { include_usage: true };
  body.messages = input.messages;
  return body;
}

class ChatReader implements StreamReader {
  private readonly mapper = new StreamMapper();
  private sawDone = false;
  private readonly dropped = 0;

  push(data: unknown): ReadResult {
    if (typeof data === 'string') return this.read(frameOf(data));
    if (!isRecord(data)) return { events: [], malformed: String(data) };
    return this.read(frameOfJson(data, JSON.stringify(data)));
  }

  private read(frame: StreamFrame): ReadResult {
    switch (frame.kind) {
      case 'done':
        this.sawDone = true;
        return { events: [], end: true };
      case 'malformed':
        return { events: [], malformed: frame.raw };
      case 'error':
        return { events: [], error: frame.error };
    }
    const events = this.mapper.push(frame.chunk);
    return frame.raw === undefined ? { events } : { events, wrongShape: frame.raw };
  }

  finish(): StreamEvent[] {
    return this.mapper.finish();
  }

  abandon(): StreamEvent[] {
    return this.mapper.abandon();
  }

  get summary(): StreamSummary {
    const s = this.mapper.summary;
    return {
      textChars: s.textChars,
      thinkingChars: s.thinkingChars,
      toolCalls: s.toolCalls,
      finishReason: s.finishReason,
      complete: this.sawDone || !!s.finishReason,
      sawUsage: s.sawUsage,
      droppedToolCalls: this.dropped,
      usageAnomaly: s.usageAnomaly,
    };
  }

  /** Chat keeps its reasoning in `reasoning_content` (ReasoningMemory), nothing native. */
  layout(): undefined {
    return undefined;
  }
}
