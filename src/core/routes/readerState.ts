/**
 * What every native stream reader shares: the summary it keeps while emitting events, and the rule that a
 * tool call is emitted only with complete JSON arguments.
 */
import { ToolCallArgumentsError } from '../stream/toolCallAccumulator';
import type { NormalizedUsage, StreamEvent } from '../types';
import type { StreamSummary } from './route';

export class ReaderState {
  readonly summary: StreamSummary = { textChars: 0, thinkingChars: 0, toolCalls: 0, complete: false, sawUsage: false, droppedToolCalls: 0 };
  private reasoning = '';

  text(text: string, events: StreamEvent[]): void {
    if (!text) return;
    this.summary.textChars += text.length;
    events.push({ kind: 'text', text });
  }

  thinking(text: string, events: StreamEvent[]): void {
    if (!text) return;
    this.summary.thinkingChars += text.length;
    this.reasoning += text;
    events.push({ kind: 'thinking', text });
  }

  toolCall(callId: string, name: string, rawArguments: string, events: StreamEvent[]): void {
    this.summary.toolCalls++;
    events.push({ kind: 'toolCall', callId, name, input: parseToolInput(name, rawArguments) });
  }

  usage(usage: NormalizedUsage | undefined, events: StreamEvent[]): void {
    if (!usage) return;
    this.summary.sawUsage = true;
    events.push({ kind: 'usage', usage });
  }

  /** As on the chat route: an answer that came only as reasoning is shown as text, never as nothing. */
  finish(events: StreamEvent[]): StreamEvent[] {
    if (this.summary.textChars === 0 && this.summary.toolCalls === 0 && this.reasoning.trim()) this.text(this.reasoning, events);
    return events;
  }
}

/** Complete JSON object arguments, or ToolCallArgumentsError (empty arguments mean "no parameters"). */
export function parseToolInput(name: string, raw: string): object {
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ToolCallArgumentsError(name, raw);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ToolCallArgumentsError(name, raw);
  return parsed;
}

/** An SSE payload as a JSON object: parsed when raw text, `undefined` when it is not an object. */
export function payloadObject(data: unknown): Record<string, unknown> | string | undefined {
  if (typeof data !== 'string') return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : data;
  } catch {
    return data;
  }
}
