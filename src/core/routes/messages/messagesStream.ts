/**
 * Anthropic Messages stream events → StreamEvents. Blocks arrive as start / deltas / stop by `index`: text and
 * thinking deltas are emitted as they come, a tool_use is emitted at its stop with complete JSON (its id is
 * the model's), and each thinking / redacted_thinking block is kept whole with its signature to be passed back
 * unmodified. Usage: message_start's, merged with each cumulative message_delta's. `ping` (including
 * OpenCode's cost ping after message_stop) is ignored; an `error` event is reported.
 */
import type { StreamEvent } from '../../types';
import { isRecord } from '../../util/isRecord';
import { LayoutRecorder, type AssistantLayout } from '../nativeReplay';
import { NativeReader } from '../nativeReader';
import type { ReadResult } from '../route';
import { anthropicUsage, mergeAnthropicUsage } from './messagesUsage';

type Payload = Record<string, unknown>;

interface OpenBlock {
  type: string;
  start: Payload;
  json: string;
  thinking: string;
  signature: string;
}

const STOP_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter' };

export class MessagesReader extends NativeReader {
  private readonly recorder = new LayoutRecorder('messages');
  private readonly blocks = new Map<number, OpenBlock>();
  private usage: Record<string, unknown> | undefined;

  protected pushObject(payload: Payload): ReadResult {
    const events: StreamEvent[] = [];
    if (payload.type === 'error') return { events, error: isRecord(payload.error) ? payload.error : payload };
    this.read(payload, events);
    return payload.type === 'message_stop' ? { events, end: true } : { events };
  }

  private read(p: Payload, events: StreamEvent[]): void {
    switch (p.type) {
      case 'message_start':
        this.usage = mergeAnthropicUsage(undefined, isRecord(p.message) ? p.message.usage : undefined);
        return;
      case 'content_block_start':
        this.blockStart(num(p.index), isRecord(p.content_block) ? p.content_block : {}, events);
        return;
      case 'content_block_delta':
        this.blockDelta(num(p.index), isRecord(p.delta) ? p.delta : {}, events);
        return;
      case 'content_block_stop':
        this.blockStop(num(p.index), events);
        return;
      case 'message_delta':
        this.messageDelta(p, events);
        return;
      case 'message_stop':
        this.state.summary.complete = true;
        return;
    }
  }

  private blockStart(index: number, block: Payload, events: StreamEvent[]): void {
    const open: OpenBlock = { type: str(block.type), start: block, json: '', thinking: str(block.thinking), signature: str(block.signature) };
    this.blocks.set(index, open);
    if (open.type === 'text') {
      this.recorder.text();
      this.state.text(str(block.text), events);
    } else if (open.type === 'thinking') this.state.thinking(open.thinking, events);
  }

  private blockDelta(index: number, delta: Payload, events: StreamEvent[]): void {
    const open = this.blocks.get(index);
    if (delta.type === 'text_delta') this.state.text(str(delta.text), events);
    else if (!open) return;
    else if (delta.type === 'input_json_delta') open.json += str(delta.partial_json);
    else if (delta.type === 'thinking_delta') {
      open.thinking += str(delta.thinking);
      this.state.thinking(str(delta.thinking), events);
    } else if (delta.type === 'signature_delta') open.signature += str(delta.signature);
  }

  private blockStop(index: number, events: StreamEvent[]): void {
    const open = this.blocks.get(index);
    this.blocks.delete(index);
    if (!open) return;
    if (open.type === 'tool_use') {
      const callId = str(open.start.id);
      this.recorder.call(callId);
      // Some Anthropic-compatible servers put the whole input on the start block and send no deltas.
      const input = open.start.input;
      const raw = open.json || (isRecord(input) && Object.keys(input).length > 0 ? JSON.stringify(input) : '');
      this.state.toolCall(callId, str(open.start.name), raw, events);
    } else if (open.type === 'thinking') {
      this.recorder.native({ type: 'thinking', thinking: open.thinking, signature: open.signature });
    } else if (open.type === 'redacted_thinking') {
      this.recorder.native({ type: 'redacted_thinking', data: str(open.start.data) });
    }
  }

  private messageDelta(p: Payload, events: StreamEvent[]): void {
    const delta = isRecord(p.delta) ? p.delta : {};
    const reason = str(delta.stop_reason);
    if (reason) this.state.summary.finishReason = STOP_REASONS[reason] ?? reason;
    this.usage = mergeAnthropicUsage(this.usage, p.usage);
    this.state.usage(anthropicUsage(this.usage), events);
  }

  finish(): StreamEvent[] {
    // A tool_use block that never stopped had its input cut off: dropped, never run with half an input.
    for (const open of this.blocks.values()) if (open.type === 'tool_use') this.state.summary.droppedToolCalls++;
    this.blocks.clear();
    return this.state.finish([]);
  }

  abandon(): StreamEvent[] {
    for (const open of this.blocks.values()) if (open.type === 'tool_use') this.state.summary.droppedToolCalls++;
    this.blocks.clear();
    return [];
  }

  layout(): AssistantLayout | undefined {
    return this.recorder.layout();
  }
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : -1;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
