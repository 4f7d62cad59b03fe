/**
 * OpenAI chat-completion chunks → StreamEvents, in arrival order. Pure: fed chunk by chunk, so recorded
 * streams replay in tests exactly as they arrived over the wire.
 */
import type { StreamEvent } from '../types';
import { normalizeUsage } from '../usage/normalizeUsage';
import { ThinkTagSplitter } from './thinkTagSplitter';
import { ToolCallAccumulator, type ToolCallDelta } from './toolCallAccumulator';

/** The fields of a chunk we read; everything else is ignored. */
export interface ChunkLike {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: ToolCallDelta[] | null;
    } | null;
    finish_reason?: string | null;
  }[];
  usage?: unknown;
}

export interface StreamSummary {
  textChars: number;
  thinkingChars: number;
  toolCalls: number;
  finishReason?: string;
  sawUsage: boolean;
}

export class StreamMapper {
  private readonly toolCalls = new ToolCallAccumulator();
  private readonly thinkTags = new ThinkTagSplitter();
  private reasoningText = '';
  readonly summary: StreamSummary = { textChars: 0, thinkingChars: 0, toolCalls: 0, sawUsage: false };

  push(chunk: ChunkLike): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta;
      if (delta) this.readDelta(delta, events);
      if (choice.finish_reason) {
        this.summary.finishReason = choice.finish_reason;
        this.drainToolCalls(events);
      }
    }
    const usage = chunk.usage ? normalizeUsage(chunk.usage) : undefined;
    if (usage) {
      this.summary.sawUsage = true;
      events.push({ kind: 'usage', usage });
    }
    return events;
  }

  /**
   * Ends the stream: flushes held text and any tool calls never closed by a finish reason. A reply that
   * came only as reasoning is shown as text, so the user never gets an empty answer.
   */
  finish(): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const piece of this.thinkTags.flush()) this.emitPiece(piece.kind, piece.text, events);
    this.drainToolCalls(events);
    if (this.summary.textChars === 0 && this.summary.toolCalls === 0 && this.reasoningText.trim()) {
      this.emitPiece('text', this.reasoningText, events);
    }
    return events;
  }

  private readDelta(delta: NonNullable<NonNullable<ChunkLike['choices']>[number]['delta']>, events: StreamEvent[]): void {
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning) {
      this.emitPiece('thinking', reasoning, events);
    }
    if (typeof delta.content === 'string' && delta.content) {
      for (const piece of this.thinkTags.push(delta.content)) this.emitPiece(piece.kind, piece.text, events);
    }
    for (const call of delta.tool_calls ?? []) this.toolCalls.add(call);
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
