/**
 * Responses stream events → StreamEvents. Text, reasoning summaries and argument deltas are taken raw (never
 * trimmed: a delta may be one space or split inside a JSON string). A call's identity is the `call_id` of its
 * `output_item.added` (the argument events carry only the item id); it is emitted when its item is done, with
 * complete JSON. Reasoning items are kept from `output_item.done` (the `.added` copy may lack the encrypted
 * content) in arrival order, to be passed back verbatim. OpenCode's cost `ping` after the end is ignored.
 */
import type { StreamEvent } from '../../types';
import { isRecord } from '../../util/isRecord';
import { LayoutRecorder, type AssistantLayout } from '../nativeReplay';
import { NativeReader } from '../nativeReader';
import type { ReadResult } from '../route';
import { responsesUsage } from './responsesUsage';

interface PendingCall {
  callId: string;
  name: string;
  args: string;
}

type Payload = Record<string, unknown>;

const INCOMPLETE_REASONS: Record<string, string> = { max_output_tokens: 'length', content_filter: 'content_filter' };

export class ResponsesReader extends NativeReader {
  private readonly recorder = new LayoutRecorder('responses');
  private readonly calls = new Map<string, PendingCall>();
  private readonly emitted = new Set<string>();

  protected pushObject(payload: Payload): ReadResult {
    const events: StreamEvent[] = [];
    const error = this.read(payload, events);
    if (error) return { events, error };
    return payload.type === 'response.completed' || payload.type === 'response.incomplete' ? { events, end: true } : { events };
  }

  private read(p: Payload, events: StreamEvent[]): Payload | undefined {
    const delta = typeof p.delta === 'string' ? p.delta : '';
    switch (p.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.state.text(delta, events);
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.state.thinking(delta, events);
        return;
      case 'response.output_item.added':
        this.itemAdded(p.item);
        return;
      case 'response.function_call_arguments.delta':
        this.callOf(p.item_id).args += delta;
        return;
      case 'response.function_call_arguments.done':
        if (typeof p.arguments === 'string') this.callOf(p.item_id).args = p.arguments;
        return;
      case 'response.output_item.done':
        this.itemDone(p.item, events);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.ended(p, events);
        return;
      case 'response.failed':
        return failure(p);
      case 'error':
        return isRecord(p.error) ? p.error : p;
    }
    return undefined;
  }

  private itemAdded(item: unknown): void {
    if (!isRecord(item) || item.type !== 'function_call' || typeof item.id !== 'string') return;
    this.calls.set(item.id, { callId: str(item.call_id), name: str(item.name), args: str(item.arguments) });
  }

  private callOf(itemId: unknown): PendingCall {
    const id = str(itemId);
    let call = this.calls.get(id);
    if (!call) {
      call = { callId: '', name: '', args: '' };
      this.calls.set(id, call);
    }
    return call;
  }

  private itemDone(item: unknown, events: StreamEvent[]): void {
    if (!isRecord(item)) return;
    if (item.type === 'reasoning') this.recorder.native(item);
    else if (item.type === 'message') this.recorder.text();
    else if (item.type === 'function_call') {
      const pending = this.calls.get(str(item.id));
      this.calls.delete(str(item.id));
      const callId = pending?.callId || str(item.call_id) || str(item.id);
      const args = str(item.arguments) || pending?.args || '';
      const name = pending?.name || str(item.name);
      this.emitCall(callId, name, args, events);
    }
  }

  private emitCall(callId: string, name: string, args: string, events: StreamEvent[]): void {
    if (this.emitted.has(callId)) return;
    this.emitted.add(callId);
    this.recorder.call(callId);
    this.state.toolCall(callId, name, args, events);
  }

  /**
   * The final response lists every output item: a call whose item events never came (or never finished) is
   * emitted from it, so a gateway that streams calls differently still loses none.
   */
  private callsOfResponse(output: unknown, events: StreamEvent[]): void {
    if (!Array.isArray(output)) return;
    for (const item of output) {
      if (!isRecord(item) || item.type !== 'function_call' || !str(item.call_id)) continue;
      this.calls.delete(str(item.id));
      this.emitCall(str(item.call_id), str(item.name), str(item.arguments), events);
    }
  }

  private ended(p: Payload, events: StreamEvent[]): void {
    const response = isRecord(p.response) ? p.response : {};
    this.callsOfResponse(response.output, events);
    this.state.usage(responsesUsage(response.usage), events);
    const details = isRecord(response.incomplete_details) ? str(response.incomplete_details.reason) : '';
    const summary = this.state.summary;
    summary.complete = true;
    if (p.type === 'response.incomplete') summary.finishReason = INCOMPLETE_REASONS[details] ?? (details || 'incomplete');
    else summary.finishReason = summary.toolCalls > 0 ? 'tool_calls' : 'stop';
  }

  finish(): StreamEvent[] {
    // Calls whose item never finished had their arguments cut off: dropped, never run with half an input.
    this.state.summary.droppedToolCalls += this.calls.size;
    this.calls.clear();
    return this.state.finish([]);
  }

  abandon(): StreamEvent[] {
    this.state.summary.droppedToolCalls += this.calls.size;
    this.calls.clear();
    return [];
  }

  layout(): AssistantLayout | undefined {
    return this.recorder.layout();
  }
}

function failure(p: Payload): Payload {
  const response = isRecord(p.response) ? p.response : {};
  return isRecord(response.error) ? response.error : { message: 'The model failed to answer (response.failed).' };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
