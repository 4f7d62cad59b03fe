/**
 * A route's stream reader as the transport and the tests drive it: one SSE payload at a time, through the route's
 * translation (WireReader) and the one assembler. Route-neutral on top of the translation: a payload is parsed once,
 * its error (errorFrame.ts) and OpenCode's cost field are read the same for every route.
 */
import { randomUUID } from 'crypto';
import type { RouteId } from '../routeId';
import type { ReadResult, StreamReader } from './streamReader';
import type { AssistantLayout } from './nativeReplay';
import type { StreamEvent } from '../types';
import { AnswerAssembler, type AnswerResult } from './assembler';
import { errorOfPayload } from './errorFrame';
import { reportedCostOf } from '../cost/costFrame';
import type { WireEvent, WireReader } from './wireEvent';
import { isRecord } from '../util/jsonFields';

export class AnswerReader implements StreamReader {
  private readonly assembler: AnswerAssembler;

  constructor(
    route: RouteId,
    private readonly wire: WireReader,
    seed: string = randomUUID(),
  ) {
    this.assembler = new AnswerAssembler(route, seed);
  }

  push(data: unknown, eventName?: string): ReadResult {
    const payload = parsed(data);
    const error = errorOfPayload(payload, eventName);
    if (error) return this.step([{ kind: 'error', error }]);
    const cost = reportedCostOf(payload);
    const events = this.wire.read(payload, eventName);
    return this.step(cost === undefined ? events : [...events, { kind: 'cost', usd: cost }]);
  }

  pushBody(body: Record<string, unknown>): ReadResult | undefined {
    const error = errorOfPayload(body);
    if (error) return this.step([{ kind: 'error', error }]);
    return this.wire.body ? this.step(this.wire.body(body)) : undefined;
  }

  finish(): StreamEvent[] {
    const last = this.assembler.take(this.wire.end()).shown;
    return [...last, ...this.assembler.finish()];
  }

  abandon(): StreamEvent[] {
    const last = this.assembler.take(this.wire.abandon()).shown;
    return [...last, ...this.assembler.abandon()];
  }

  result(): AnswerResult {
    return this.assembler.result();
  }

  layout(): AssistantLayout | undefined {
    return this.assembler.result().layout;
  }

  private step(events: WireEvent[]): ReadResult {
    const step = this.assembler.take(events);
    const result: ReadResult = { events: step.shown, progress: step.progress };
    if (step.error) result.error = step.error;
    if (step.end) result.end = true;
    if (step.malformed !== undefined) result.malformed = step.malformed;
    if (step.wrongShape !== undefined) result.wrongShape = step.wrongShape;
    return result;
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
