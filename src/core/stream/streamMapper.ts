/**
 * Checked chat-completion chunks (chunkShape.ts) → StreamEvents, in arrival order. Pure: fed chunk by chunk,
 * so recorded streams replay in tests exactly as they arrived over the wire.
 */
import type { StreamEvent } from '../types';
import { mergeUsage } from '../usage/mergeUsage';
import { readUsage } from '../usage/normalizeUsage';
import { checkChunk, type Chunk, type ChunkDelta } from './chunkShape';
import { ThinkTagSplitter } from './thinkTagSplitter';
import { ToolCallAccumulator } from './toolCallAccumulator';

/**
 * What push takes: a chunk checked by frameOf, or a parsed chunk not yet checked (a caller that parsed JSON
 * itself). Both are checked again here (cheap, idempotent), so no caller can hand the mapper a wrong shape.
 */
export type ChunkLike = Chunk | Record<string, unknown>;

export interface StreamSummary {
  textChars: number;
  thinkingChars: number;
  toolCalls: number;
  finishReason?: string;
  sawUsage: boolean;
  /** What was odd about the usage record, when it contradicted itself (normalizeUsage.ts). */
  usageAnomaly?: string;
}

export class StreamMapper {
  private readonly toolCalls = new ToolCallAccumulator();
  private readonly thinkTags = new ThinkTagSplitter();
  private reasoningText = '';
  private rawUsage: Record<string, unknown> | undefined;
  readonly summary: StreamSummary = { textChars: 0, thinkingChars: 0, toolCalls: 0, sawUsage: false };

  push(input: ChunkLike): StreamEvent[] {
    const chunk = checkChunk(input as Record<string, unknown>).chunk;
    const events: StreamEvent[] = [];
    for (const choice of chunk.choices) {
      if (choice.delta) this.readDelta(choice.delta, events);
      if (choice.finish_reason) {
        this.summary.finishReason = choice.finish_reason;
        this.drainToolCalls(events);
      }
    }
    if (chunk.usage) this.readUsage(chunk.usage, events);
    return events;
  }

  /**
   * Ends the stream: flushes held text and any tool calls never closed by a finish reason. A reply that
   * came only as reasoning is shown as text, so the user never gets an empty answer.
   */
  finish(): StreamEvent[] {
    const events = this.abandon();
    this.drainToolCalls(events);
    if (this.summary.textChars === 0 && this.summary.toolCalls === 0 && this.reasoningText.trim()) {
      this.emitPiece('text', this.reasoningText, events);
    }
    return events;
  }

  /** The stream broke: the text held back for a possible tag is still text; unfinished tool calls are dropped. */
  abandon(): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const piece of this.thinkTags.flush()) this.emitPiece(piece.kind, piece.text, events);
    return events;
  }

  private readDelta(delta: ChunkDelta, events: StreamEvent[]): void {
    if (delta.reasoning) this.emitPiece('thinking', delta.reasoning, events);
    if (delta.content) {
      for (const piece of this.thinkTags.push(delta.content)) this.emitPiece(piece.kind, piece.text, events);
    }
    for (const call of delta.tool_calls ?? []) this.toolCalls.add(call);
  }

  /** Usage frames merge (a trailing frame with only output tokens keeps the prompt side); the event carries the merged reading. */
  private readUsage(raw: Record<string, unknown>, events: StreamEvent[]): void {
    const merged = mergeUsage(this.rawUsage, raw);
    const reading = readUsage(merged);
    if (!reading) return;
    this.rawUsage = merged;
    this.summary.sawUsage = true;
    if (reading.anomaly) this.summary.usageAnomaly = reading.anomaly;
    events.push({ kind: 'usage', usage: reading.usage });
  }

  private emitPiece(kind: 'text' | 'thinking', text: string, events: StreamEvent[]): void {
    if (kind === 'text') this.summary.textChars += text.length;
    else {
      this.summary.thinkingChars += text.length;
      this.reasoningText += text;
    }
    events.push({ kind, text });
  }

  private drainToolCalls(events: StreamEvent[]): void {
    if (!this.toolCalls.hasCalls) return;
    for (const call of this.toolCalls.drain()) {
      this.summary.toolCalls++;
      events.push({ kind: 'toolCall', callId: call.callId, name: call.name, input: call.input });
    }
  }
}
