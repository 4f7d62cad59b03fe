/**
 * Server-sent events → each event's `data` payload and its `event:` name, fed text as it arrives (split
 * anywhere). The parsing itself is eventsource-parser's (spec-compliant: comments, multi-line data, CR/LF
 * variants); this only collects events per push, and treats a final event without its closing blank line as
 * complete, as a gateway that closes the connection early can leave one. The name is kept because an
 * `event: error` frame is an error whatever its data says (core/answer/errorFrame.ts).
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
