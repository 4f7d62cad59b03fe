/**
 * Server-sent events → the `data` payload of each event, fed text as it arrives (split anywhere, even
 * between `\r` and `\n`). Pure. Comment lines (`: keep-alive`) and the `event`/`id`/`retry` fields are
 * dropped; several `data:` lines of one event are joined with `\n`, as the SSE spec says.
 */

export class SseDecoder {
  private buffer = '';
  private dataLines: string[] = [];

  /** The payloads of every event completed by this text. */
  push(text: string): string[] {
    this.buffer += text;
    const payloads: string[] = [];
    for (;;) {
      const end = lineEnd(this.buffer);
      if (!end) break;
      this.readLine(this.buffer.slice(0, end.at), payloads);
      this.buffer = this.buffer.slice(end.at + end.length);
    }
    return payloads;
  }

  /** The stream ended: an event without its closing blank line still counts. */
  flush(): string[] {
    const payloads: string[] = [];
    if (this.buffer) this.readLine(this.buffer.replace(/\r$/, ''), payloads);
    this.buffer = '';
    this.dispatch(payloads);
    return payloads;
  }

  private readLine(line: string, payloads: string[]): void {
    if (line === '') return this.dispatch(payloads);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon < 0 ? '' : line.slice(colon + 1);
    this.dataLines.push(value.startsWith(' ') ? value.slice(1) : value);
  }

  private dispatch(payloads: string[]): void {
    if (this.dataLines.length > 0) payloads.push(this.dataLines.join('\n'));
    this.dataLines = [];
  }
}

/**
 * Where the first complete line ends. A trailing lone `\r` is not an end yet: its `\n` may be in the
 * next piece of text.
 */
function lineEnd(buffer: string): { at: number; length: number } | undefined {
  const match = /\r\n|\r|\n/.exec(buffer);
  if (!match) return undefined;
  if (match[0] === '\r' && match.index === buffer.length - 1) return undefined;
  return { at: match.index, length: match[0].length };
}
