/**
 * Server-sent events → the `data` payload of each event, fed text as it arrives (split anywhere). The
 * parsing itself is eventsource-parser's (spec-compliant: comments, multi-line data, CR/LF variants);
 * this only collects payloads per push, and treats a final event without its closing blank line as
 * complete, as a gateway that closes the connection early can leave one.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

export class SseDecoder {
  private readonly parser: EventSourceParser;
  private payloads: string[] = [];

  constructor() {
    this.parser = createParser({ onEvent: (event) => this.payloads.push(event.data) });
  }

  /** The payloads of every event completed by this text. */
  push(text: string): string[] {
    this.parser.feed(text);
    return this.take();
  }

  /** The stream ended: an event without its closing blank line still counts. */
  flush(): string[] {
    // Ending the last line and the event: harmless when the stream already ended with a blank line.
    this.parser.feed('\n\n');
    return this.take();
  }

  private take(): string[] {
    const payloads = this.payloads;
    this.payloads = [];
    return payloads;
  }
}
