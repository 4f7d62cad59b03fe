/**
 * Turns each request's full history into the replay JSONL: a whole request
 * `{"messages":[…],"tools":[…]}`, or `{"append":[…]}` when the history only grew since the previous
 * request of the same conversation (the usual case, and far smaller on disk). Given what the request finally
 * sent (sentRecord.ts), the line also carries it as `"sent":{…}` — a field older readers ignore.
 */
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { nativeKey } from '../answer/nativeReplay';
import type { SentRecord } from './sentRecord';

/** `sent` with its native sizes narrowed to the messages this line writes (earlier lines carry the rest). */
function withNewNative(sent: SentRecord, written: readonly WireMessage[]): SentRecord {
  if (!sent.native) return sent;
  const { native, ...rest } = sent;
  const kept = Object.fromEntries(written.map(nativeKey).filter((key): key is string => key !== undefined && Object.hasOwn(native, key)).map((key) => [key, native[key]]));
  return Object.keys(kept).length > 0 ? { ...rest, native: kept } : rest;
}

export class RequestRecording {
  private previous: string[] = [];
  private previousTools = '';

  /** The JSONL line for this request (without the newline). */
  lineFor(messages: readonly WireMessage[], tools: readonly WireTool[], sent?: SentRecord): string {
    const serialized = messages.map((message) => JSON.stringify(message));
    const toolsJson = JSON.stringify(tools);
    const grewOnly = this.previous.length > 0 && toolsJson === this.previousTools && serialized.length >= this.previous.length && this.previous.every((line, i) => line === serialized[i]);
    const sentJson = sent ? `,"sent":${JSON.stringify(withNewNative(sent, grewOnly ? messages.slice(this.previous.length) : messages))}` : '';
    const line = grewOnly
      ? `{"append":[${serialized.slice(this.previous.length).join(',')}]${sentJson}}`
      : `{"messages":[${serialized.join(',')}],"tools":${toolsJson}${sentJson}}`;
    this.previous = serialized;
    this.previousTools = toolsJson;
    return line;
  }
}
