/** The Chat Completions stream: the existing StreamMapper behind the route's StreamReader interface. */
import { frameOf, frameOfJson, type StreamFrame } from '../../stream/streamFrame';
import { StreamMapper } from '../../stream/streamMapper';
import type { StreamEvent } from '../../types';
import { isRecord } from '../../util/isRecord';
import type { ReadResult, StreamReader, StreamSummary } from '../route';

export class ChatReader implements StreamReader {
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
