/**
 * Chat Completions (`/chat/completions`, OpenCode's "oa-compat" format): the route every model took before
 * routes existed. The body and the stream mapping are the existing ones (core/convert, core/stream); this
 * only puts them behind the Route interface.
 */
import { toWireToolChoice } from '../../convert/toWireTools';
import { frameOf } from '../../stream/streamFrame';
import { StreamMapper, type ChunkLike } from '../../stream/streamMapper';
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
  private dropped = 0;

  push(data: unknown): ReadResult {
    if (typeof data === 'string') {
      const frame = frameOf(data);
      if (frame.kind === 'done') this.sawDone = true;
      if (frame.kind === 'malformed') return { events: [], malformed: frame.raw };
      if (frame.kind === 'error') return { events: [], error: frame.error };
      return { events: frame.kind === 'chunk' ? this.mapper.push(frame.chunk) : [] };
    }
    if (!isRecord(data)) return { events: [], malformed: String(data) };
    if (data.error) return { events: [], error: isRecord(data.error) ? data.error : { message: String(data.error) } };
    return { events: this.mapper.push(data as ChunkLike) };
  }

  finish(): StreamEvent[] {
    return this.mapper.finish();
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
    };
  }

  /** Chat keeps its reasoning in `reasoning_content` (ReasoningMemory), nothing native. */
  layout(): undefined {
    return undefined;
  }
}
