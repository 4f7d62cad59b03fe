/**
 * The one place the rules of an answer are applied, the same on every route (docs/architecture.md "Readers
 * translate; one assembler decides"). Fed the neutral events a route's reader produced (wireEvent.ts), it says what
 * to show (text, thinking, whole tool calls) as it arrives and, at the end, what the answer was (AnswerResult):
 * - text, thinking and refusals (the model's words, shown as text); a reply that came only as reasoning is shown as
 *   text too, never as nothing;
 * - tool calls judged one by one (toolCalls.ts); calls still open at the end are dropped, never run half-built;
 * - usage through one merger and one normalizer (usageRecord.ts), its anomaly kept for one WARN;
 * - a stop by the provider's filter after text: a short note in the answer (notes.ts);
 * - finish reason, end marker, OpenCode's cost; native items laid out in arrival order (nativeReplay.ts);
 * - which payloads are progress (progress.ts: only an event that adds something restarts the idle timeout).
 */
import { LayoutRecorder, type AssistantLayout } from './nativeReplay';
import type { RouteId } from '../routeId';
import type { NormalizedUsage, StreamEvent } from '../types';
import { stoppedNote } from './notes';
import { addsSomething } from './progress';
import { ToolCalls, type CallVerdict, type DroppedCall } from './toolCalls';
import { UsageRecord } from './usageRecord';
import type { WireEvent } from './wireEvent';

export interface AnswerResult {
  usage?: NormalizedUsage;
  /** What was odd about the usage record, when it contradicted itself: calibration does not learn from it. */
  usageAnomaly?: string;
  /** OpenCode's cost of the request, in US dollars, when its cost frame arrived. */
  cost?: number;
  /** Normalized: stop | tool_calls | length | content_filter | (anything else the model said). */
  finishReason?: string;
  /** The end marker or a finish reason arrived. */
  ended: boolean;
  /** The end marker itself arrived. */
  sawEnd: boolean;
  textChars: number;
  thinkingChars: number;
  toolCalls: number;
  /** The thinking text and the delivered calls' ids (the reasoning memory keeps one under the other). */
  thinking: string;
  callIds: string[];
  /** Calls not delivered, with their names: arguments not JSON, or the stream ended inside them. */
  dropped: DroppedCall[];
  /** Payloads that were not JSON, or JSON with fields of the wrong type; the first one for the log. */
  skipped: { notJson: number; wrongShape: number; first?: string };
  /** Native items to pass back verbatim later, when any arrived. */
  layout?: AssistantLayout;
}

/** What one payload meant: what to show now, and what the transport must know. */
export interface AssembledStep {
  shown: StreamEvent[];
  error?: Record<string, unknown>;
  end?: boolean;
  /** An event that adds something arrived (progress.ts): the idle timeout starts again. */
  progress: boolean;
  malformed?: string;
  wrongShape?: string;
}

type Emit = (event: StreamEvent) => void;

/** A finish reason, usage, the end marker and OpenCode's cost frame: each arrived or not (so far). */
export interface AnswerEnding {
  finishReason: boolean;
  usage: boolean;
  sawEnd: boolean;
  cost: boolean;
}

export class AnswerAssembler {
  private readonly calls: ToolCalls;
  private readonly usage = new UsageRecord();
  private readonly layoutRecorder: LayoutRecorder;
  /** Native items waiting for the call they belong before (by key). */
  private readonly callNatives = new Map<string, Record<string, unknown>[]>();
  private readonly state: AnswerResult = {
    ended: false, sawEnd: false, textChars: 0, thinkingChars: 0, toolCalls: 0, thinking: '', callIds: [], dropped: [], skipped: { notJson: 0, wrongShape: 0 },
  };
  private wireFinish = '';

  /** `seed`: unique per answer, for the ids of calls the wire sent without one (toolCalls.ts). */
  constructor(route: RouteId, seed: string) {
    this.layoutRecorder = new LayoutRecorder(route);
    this.calls = new ToolCalls(seed);
  }

  take(events: readonly WireEvent[]): AssembledStep {
    const step: AssembledStep = { shown: [], progress: false };
    const emit: Emit = (event) => this.emit(event, step.shown);
    for (const event of events) this.apply(event, step, emit);
    return step;
  }

  /** What decides when the read may end (core/stream/answerEnd.ts), read without copying the result. */
  ending(): AnswerEnding {
    const s = this.state;
    return { finishReason: !!s.finishReason, usage: !!this.usage.reading, sawEnd: s.sawEnd, cost: s.cost !== undefined };
  }

  /** The stream ended: open calls dropped; an answer of only broken calls is refused; reasoning alone shown as text. */
  finish(): StreamEvent[] {
    const shown: StreamEvent[] = [];
    this.state.dropped.push(...this.calls.unfinished());
    const s = this.state;
    const broken = s.dropped.find((call) => call.error);
    if (s.textChars === 0 && s.toolCalls === 0 && broken?.error) throw broken.error;
    if (s.textChars === 0 && s.toolCalls === 0 && s.thinking.trim()) this.emit({ kind: 'text', text: s.thinking }, shown);
    return shown;
  }

  /** The stream broke: calls still open had their arguments cut off. */
  abandon(): StreamEvent[] {
    this.state.dropped.push(...this.calls.unfinished());
    return [];
  }

  result(): AnswerResult {
    const reading = this.usage.reading;
    const s = this.state;
    return {
      ...s,
      finishReason: s.finishReason === 'stop' && s.toolCalls > 0 ? 'tool_calls' : s.finishReason,
      ...(reading ? { usage: reading.usage } : {}),
      ...(reading?.anomaly ? { usageAnomaly: reading.anomaly } : {}),
      layout: this.layoutRecorder.layout(),
      dropped: [...s.dropped],
      callIds: [...s.callIds],
      skipped: { ...s.skipped },
    };
  }

  private apply(event: WireEvent, step: AssembledStep, emit: Emit): void {
    if (addsSomething(event)) step.progress = true;
    switch (event.kind) {
      case 'text':
      case 'refusal':
        if (event.text) emit({ kind: 'text', text: event.text });
        return;
      case 'thinking':
        if (event.text) emit({ kind: 'thinking', text: event.text });
        return;
      case 'toolPart':
        return this.calls.part(event.key, event);
      case 'toolEnd':
        return this.verdict(event.key, this.calls.end(event.key, event), emit);
      case 'usage':
        return this.usage.add(event);
      case 'finish':
        return this.finished(event.reason, event.wire, emit);
      case 'error':
        step.error = event.error;
        return;
      case 'native':
        if (event.call === undefined) this.layoutRecorder.native(event.item);
        else this.callNatives.set(event.call, [...(this.callNatives.get(event.call) ?? []), event.item]);
        return;
      case 'cost':
        this.state.cost = event.usd;
        return;
      case 'end':
        this.state.sawEnd = this.state.ended = step.end = true;
        return;
      case 'malformed':
        return this.skipped(event.raw, !!event.wrongShape, step);
      case 'keepAlive':
        return;
    }
  }

  private verdict(key: string, verdict: CallVerdict, emit: Emit): void {
    const natives = this.callNatives.get(key) ?? [];
    this.callNatives.delete(key);
    if (!verdict) return;
    if ('dropped' in verdict) {
      this.state.dropped.push(verdict.dropped);
      return;
    }
    const { callId, name, input } = verdict.delivered;
    for (const item of natives) this.layoutRecorder.native({ ...item, callId });
    emit({ kind: 'toolCall', callId, name, input });
  }

  private finished(reason: string, wire: string, emit: Emit): void {
    this.state.finishReason = reason;
    this.state.ended = true;
    // Said once, and only after text: an empty answer stopped by a filter is an error sentence instead.
    if (reason === 'content_filter' && this.state.textChars > 0 && this.wireFinish !== wire) emit({ kind: 'text', text: stoppedNote(wire) });
    this.wireFinish = wire;
  }

  private skipped(raw: string, wrongShape: boolean, step: AssembledStep): void {
    const skipped = this.state.skipped;
    if (wrongShape) {
      skipped.wrongShape++;
      step.wrongShape ??= raw;
    } else {
      skipped.notJson++;
      step.malformed ??= raw;
    }
    skipped.first ??= raw;
  }

  private emit(event: StreamEvent, shown: StreamEvent[]): void {
    const s = this.state;
    if (event.kind === 'text') {
      s.textChars += event.text.length;
      this.layoutRecorder.text();
    } else if (event.kind === 'thinking') {
      s.thinkingChars += event.text.length;
      s.thinking += event.text;
    } else if (event.kind === 'toolCall') {
      s.toolCalls++;
      s.callIds.push(event.callId);
      this.layoutRecorder.call(event.callId);
    }
    shown.push(event);
  }
}
