/**
 * What every route uses to read an answer's SSE body (route-neutral; each route's reader translates the payloads):
 * - SSE → each event's `data` payload and its `event:` name, fed text as it arrives (split anywhere). The parsing
 *   itself is eventsource-parser's (spec-compliant: comments, multi-line data, CR/LF variants); this only collects
 *   events per push, and treats a final event without its closing blank line as complete, as a gateway that closes
 *   the connection early can leave one. The name is kept because an `event: error` frame is an error whatever its
 *   data says (core/answer/answerReader.ts).
 * - When an answer is over, whatever the wire format (docs/issues/009, AnswerEnd below).
 * - A short preview of a bad payload for the log.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseEvent {
  data: string;
  /** The `event:` field, when the event had one. */
  event?: string;
}

export class SseDecoder {
  private readonly parser: EventSourceParser;
  private events: SseEvent[] = [];

  constructor() {
    this.parser = createParser({ onEvent: (event) => this.events.push(event.event ? { data: event.data, event: event.event } : { data: event.data }) });
  }

  /** Every event completed by this text. */
  push(text: string): SseEvent[] {
    this.parser.feed(text);
    return this.take();
  }

  /** The stream ended: an event without its closing blank line still counts. */
  flush(): SseEvent[] {
    // Ending the last line and the event: harmless when the stream already ended with a blank line.
    this.parser.feed('\n\n');
    return this.take();
  }

  private take(): SseEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }
}

/** The events (`data` and `event:` name) of an SSE body, decoded as UTF-8 across chunk boundaries. */
export async function* ssePayloads(body: ReadableStream<Uint8Array> | null): AsyncGenerator<SseEvent> {
  if (!body) return;
  const reader = body.getReader();
  const utf8 = new TextDecoder();
  const sse = new SseDecoder();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* sse.push(utf8.decode(value, { stream: true }));
    }
    finished = true;
    yield* sse.push(utf8.decode());
    yield* sse.flush();
  } finally {
    if (!finished) reader.cancel().catch(() => undefined);
  }
}

/** A short, single-line preview of a bad payload for the log (never the whole thing). */
export function previewOf(raw: string, max = 60): string {
  const oneLine = raw.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine);
}

/*
 * When an answer is over: the transport tells AnswerEnd what each payload brought (progress, a finish reason, usage,
 * the end marker) and it says how long to wait for the next one. Only progress restarts the idle timeout: a keep-alive
 * (an Anthropic `ping`, an empty chat chunk) never does, so a stalled stream times out. After a finish reason only
 * usage, the end marker and OpenCode's cost frame can follow, so the wait is short and fixed: nothing that arrives
 * later extends it (a server pinging forever after a complete answer cannot keep it "in progress"); silence or a
 * broken connection then is the normal end.
 */
/** After a finish reason: the wait for usage and the end marker, instead of the idle timeout. */
export const AFTER_FINISH_MS = 2_000;
/** After a finish reason and usage: only the end marker (or a trailing usage frame) can follow. */
export const AFTER_USAGE_MS = 300;
/** After the end marker: OpenCode's cost frame may still follow, unless the connection closes first. */
export const AFTER_END_MS = 250;

export interface Arrived {
  progress?: boolean;
  finishReason?: boolean;
  usage?: boolean;
  end?: boolean;
}

export class AnswerEnd {
  /** A finish reason or the end marker arrived: the answer itself is complete. */
  finished = false;
  private usage = false;
  private deadline = Infinity;

  /** `expectUsage`: usage was asked for (without it, the finish reason is the last thing worth waiting for). */
  constructor(
    private readonly idleTimeoutMs: number,
    private readonly expectUsage: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** After a payload: how long to wait for the next one, or undefined to keep the timer already running. */
  note(arrived: Arrived): number | undefined {
    const now = this.now();
    const wasFinished = this.finished;
    const newUsage = !!arrived.usage && !this.usage;
    if (arrived.usage) this.usage = true;
    if (arrived.finishReason || arrived.end) this.finished = true;
    if (!this.finished) return arrived.progress ? this.idleTimeoutMs : undefined;
    const wait = arrived.end ? AFTER_END_MS : this.usage || !this.expectUsage ? AFTER_USAGE_MS : AFTER_FINISH_MS;
    if (!wasFinished || newUsage || arrived.end) this.deadline = Math.min(this.deadline, now + Math.min(wait, this.idleTimeoutMs));
    return wasFinished && !newUsage && !arrived.end ? undefined : Math.max(0, this.deadline - now);
  }
}
