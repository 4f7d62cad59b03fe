/**
 * The one reader of an answer, the same on every route (docs/architecture.md "Readers translate; one assembler
 * decides"). Each SSE payload is parsed once and its error and OpenCode's cost frame are read by one rule here; the
 * route's translation (its WireReader, wireEvent.ts) turns the rest into neutral events; and this assembler applies
 * every rule of an answer to those, saying what to show (text, thinking, whole tool calls) as it arrives and, at the
 * end, what the answer was (AnswerResult, streamReader.ts):
 * - text, thinking and refusals (the model's words, shown as text); a reply that came only as reasoning is shown as
 *   text too, never as nothing;
 * - tool calls judged one by one (toolCalls.ts); calls still open at the end are dropped, never run half-built;
 * - usage through the one merger (core/usage) and the route's usage conversion the event names, its anomaly kept
 *   for one WARN;
 * - a stop by the provider's filter after text: a short note in the answer (stoppedNote);
 * - finish reason, end marker, OpenCode's cost; native items laid out in arrival order (nativeReplay.ts);
 * - which payloads are progress (addsSomething: only an event that adds something restarts the idle timeout).
 */
import { randomUUID } from 'crypto';
import type { RouteId } from '../routeId';
import type { StreamEvent } from '../types';
import { mergeUsage, type UsageReading } from '../usage/usage';
import { filledString, isNonNegative, isRecord } from '../util/jsonFields';
import { LayoutRecorder } from './nativeReplay';
import type { AnswerEnding, AnswerResult, ReadResult, StreamReader } from './streamReader';
import { ToolCalls, type CallVerdict } from './toolCalls';
import type { WireEvent, WireReader } from './wireEvent';

export class AnswerReader implements StreamReader {
  private readonly calls: ToolCalls;
  private readonly layoutRecorder: LayoutRecorder;
  /** Native items waiting for the call they belong before (by key). */
  private readonly callNatives = new Map<string, Record<string, unknown>[]>();
  private readonly state: AnswerResult = {
    ended: false, sawEnd: false, textChars: 0, thinkingChars: 0, toolCalls: 0, thinking: '', callIds: [], dropped: [], skipped: { notJson: 0, wrongShape: 0 },
  };
  private wireFinish = '';
  /** The usage merged so far (as the wire sent it) and its last reading that was usage at all. */
  private rawUsage: Record<string, unknown> | undefined;
  private usage: UsageReading | undefined;

  /** `seed`: unique per answer, for the ids of calls the wire sent without one (toolCalls.ts). */
  constructor(
    route: RouteId,
    private readonly wire: WireReader,
    seed: string = randomUUID(),
  ) {
    this.layoutRecorder = new LayoutRecorder(route);
    this.calls = new ToolCalls(seed);
  }

  push(data: unknown, eventName?: string): ReadResult {
    const payload = parsed(data);
    const error = errorOfPayload(payload, eventName);
    if (error) return this.take([{ kind: 'error', error }]);
    const cost = reportedCostOf(payload);
    const events = this.wire.read(payload, eventName);
    return this.take(cost === undefined ? events : [...events, { kind: 'cost', usd: cost }]);
  }

  pushBody(body: Record<string, unknown>): ReadResult | undefined {
    const error = errorOfPayload(body);
    if (error) return this.take([{ kind: 'error', error }]);
    return this.wire.body ? this.take(this.wire.body(body)) : undefined;
  }

  /** The stream ended: open calls dropped; an answer of only broken calls is refused; reasoning alone shown as text. */
  finish(): StreamEvent[] {
    const shown = this.take(this.wire.end()).events;
    this.state.dropped.push(...this.calls.unfinished());
    const s = this.state;
    const broken = s.dropped.find((call) => call.error);
    if (s.textChars === 0 && s.toolCalls === 0 && broken?.error) throw broken.error;
    if (s.textChars === 0 && s.toolCalls === 0 && s.thinking.trim()) this.emit({ kind: 'text', text: s.thinking }, shown);
    return shown;
  }

  /** The stream broke: calls still open had their arguments cut off. */
  abandon(): StreamEvent[] {
    const shown = this.take(this.wire.abandon()).events;
    this.state.dropped.push(...this.calls.unfinished());
    return shown;
  }

  result(): AnswerResult {
    const s = this.state;
    return {
      ...s,
      finishReason: s.finishReason === 'stop' && s.toolCalls > 0 ? 'tool_calls' : s.finishReason,
      ...(this.usage ? { usage: this.usage.usage } : {}),
      ...(this.usage?.anomaly ? { usageAnomaly: this.usage.anomaly } : {}),
      layout: this.layoutRecorder.layout(),
      dropped: [...s.dropped],
      callIds: [...s.callIds],
      skipped: { ...s.skipped },
    };
  }

  /** What decides when the read may end (core/stream/answerStream.ts), read without copying the result. */
  ending(): AnswerEnding {
    const s = this.state;
    return { finishReason: !!s.finishReason, usage: !!this.usage, sawEnd: s.sawEnd, cost: s.cost !== undefined };
  }

  /** What one payload's events meant: what to show now, and what the transport must know. */
  private take(events: readonly WireEvent[]): ReadResult {
    const step: ReadResult = { events: [], progress: false };
    for (const event of events) this.apply(event, step);
    return step;
  }

  private apply(event: WireEvent, step: ReadResult): void {
    if (addsSomething(event)) step.progress = true;
    const shown = step.events;
    switch (event.kind) {
      case 'text':
      case 'refusal':
        if (event.text) this.emit({ kind: 'text', text: event.text }, shown);
        return;
      case 'thinking':
        if (event.text) this.emit({ kind: 'thinking', text: event.text }, shown);
        return;
      case 'toolPart':
        return this.calls.part(event.key, event);
      case 'toolEnd':
        return this.verdict(event.key, this.calls.end(event.key, event), shown);
      case 'usage':
        return this.addUsage(event);
      case 'finish':
        return this.finished(event.reason, event.wire, shown);
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
      case 'malformed': {
        const skipped = this.state.skipped;
        if (event.wrongShape) skipped.wrongShape++;
        else skipped.notJson++;
        skipped.first ??= event.raw;
        return;
      }
      case 'keepAlive':
        return;
    }
  }

  /**
   * A raw usage frame: merged with the one merger (a later frame updates the fields it carries) or replacing the
   * usage so far (a format whose every frame carries the whole usage), then read by the route's usage conversion
   * (core/usage/usage.ts: numeric strings, NaN and negatives, cache reads above the prompt). A frame that is no usage at all (`usage: {}`,
   * fields of no known shape) changes nothing.
   */
  private addUsage(event: Extract<WireEvent, { kind: 'usage' }>): void {
    const next = event.merge === 'replace' || !this.rawUsage ? { ...event.raw } : mergeUsage(this.rawUsage, event.raw);
    const reading = event.read(next);
    if (!reading) return;
    this.rawUsage = next;
    this.usage = reading;
  }

  private verdict(key: string, verdict: CallVerdict, shown: StreamEvent[]): void {
    const natives = this.callNatives.get(key) ?? [];
    this.callNatives.delete(key);
    if (!verdict) return;
    if ('dropped' in verdict) {
      this.state.dropped.push(verdict.dropped);
      return;
    }
    const { callId, name, input } = verdict.delivered;
    for (const item of natives) this.layoutRecorder.native({ ...item, callId });
    this.emit({ kind: 'toolCall', callId, name, input }, shown);
  }

  private finished(reason: string, wire: string, shown: StreamEvent[]): void {
    this.state.finishReason = reason;
    this.state.ended = true;
    // Said once, and only after text: an empty answer stopped by a filter is an error sentence instead.
    if (reason === 'content_filter' && this.state.textChars > 0 && this.wireFinish !== wire) this.emit({ kind: 'text', text: stoppedNote(wire) }, shown);
    this.wireFinish = wire;
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

/**
 * The short line the user reads inside the answer when the provider stopped it for its own reasons (a safety or
 * recitation filter) after some text (a cut answer is an error after the text instead: core/request/streamErrors.ts
 * CutAnswerError). Part of the answer's text (VS Code keeps it in the history), so worded once and never per turn.
 */
export function stoppedNote(wireReason: string): string {
  return `\n\n*(The provider stopped the answer here: ${wireReason || 'content filter'}.)*`;
}

/**
 * The one progress rule, for every route (issue 29 item 3): only an event that adds something to the answer
 * restarts the idle timeout. Text, thinking or a refusal with at least one character, a piece of a tool call that
 * carries a name, an id or argument characters, a call's end, a native item, a finish reason, the end marker and
 * an error do. An empty delta, a usage-only frame, a ping (keep-alive), OpenCode's cost frame and a skipped payload
 * do not: a stream that sends only those times out, whichever wire it speaks.
 */
function addsSomething(event: WireEvent): boolean {
  switch (event.kind) {
    case 'text':
    case 'thinking':
    case 'refusal':
      return event.text.length > 0;
    case 'toolPart':
      return !!(event.args || event.name || event.id);
    case 'toolEnd':
    case 'native':
    case 'finish':
    case 'end':
    case 'error':
      return true;
    case 'usage':
    case 'cost':
    case 'keepAlive':
    case 'malformed':
      return false;
  }
}

/** Raw SSE text parsed when it is a JSON object; anything else (`[DONE]`, junk, `42`) stays text for the route to judge. */
function parsed(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    const value: unknown = JSON.parse(data);
    return isRecord(value) ? value : data;
  } catch {
    return data;
  }
}

/**
 * The error an SSE payload carries, whatever the route: an `event: error` frame (with or without a `type` in its
 * data, JSON or plain text), a `{"type": "error", …}` payload (Responses, Messages), or an `error` field (chat,
 * Gemini, gateways). One rule for every route, so a gateway's "Overloaded" is read as the error it is.
 */
export function errorOfPayload(payload: unknown, eventName?: string): Record<string, unknown> | undefined {
  if (eventName === 'error') {
    if (!isRecord(payload)) return { message: String(payload) };
    return errorField(payload.error) ?? payload;
  }
  if (!isRecord(payload)) return undefined;
  if (payload.type === 'error') {
    // `{"type": "error", "message": …}`: the type says only that it is an error.
    const { type: _type, ...rest } = payload;
    return errorField(payload.error) ?? rest;
  }
  return errorField(payload.error);
}

function errorField(value: unknown): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  const message = filledString(value);
  return message === undefined ? undefined : { message };
}

/**
 * No single request costs this much (the dearest model's whole window and output are a few dollars): a larger
 * reported cost is no cost at all (then the prices compute it, if known), never `$1e+30` or `$Infinity` in a sum.
 */
export const MAX_REPORTED_USD = 10_000;

/**
 * OpenCode's cost frame: after every stream the gateway appends one more SSE payload with the request's cost in
 * dollars (chat: `{"choices":[],"cost":"0.0123"}` after `[DONE]`; Responses, Messages and Gemini:
 * `{"type":"ping","cost":"0.0123"}`, after the end event where the route has one). The payload's cost in USD when
 * it is that frame with a believable cost, else undefined (never throws); the same rule on every route.
 */
export function reportedCostOf(data: unknown): number | undefined {
  // Cheap test first: this runs on every payload of every answer.
  if (typeof data === 'string' && !data.includes('"cost"')) return undefined;
  const payload = parsed(data);
  if (!isRecord(payload) || !isCostFrame(payload)) return undefined;
  const raw = payload.cost;
  const usd = typeof raw === 'string' && /^\s*\d+(\.\d+)?([eE]-?\d+)?\s*$/.test(raw) ? Number(raw) : raw;
  return isNonNegative(usd) && usd <= MAX_REPORTED_USD ? usd : undefined;
}

/** The frame's two shapes: a `ping`, or a chat chunk without choices; anything else with a `cost` is not it. */
function isCostFrame(payload: Record<string, unknown>): boolean {
  if (!('cost' in payload)) return false;
  return payload.type === 'ping' || (Array.isArray(payload.choices) && payload.choices.length === 0);
}
