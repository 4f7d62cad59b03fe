/**
 * The part every native stream reader (messages, responses, gemini) shares: its ReaderState and the rule that
 * a payload that is not a JSON object is reported as malformed before any route-specific reading.
 */
import { isRecord } from '../util/isRecord';
import type { AssistantLayout } from './nativeReplay';
import { payloadObject, ReaderState } from './readerState';
import type { ReadResult, StreamReader, StreamSummary } from './route';
import type { StreamEvent } from '../types';

export abstract class NativeReader implements StreamReader {
  protected readonly state = new ReaderState();

  get summary(): StreamSummary {
    return this.state.summary;
  }

  push(data: unknown): ReadResult {
    const payload = payloadObject(data);
    if (!isRecord(payload)) return { events: [], malformed: typeof payload === 'string' ? payload : String(data) };
    return this.pushObject(payload);
  }

  /** One SSE payload already known to be a JSON object. */
  protected abstract pushObject(payload: Record<string, unknown>): ReadResult;
  abstract finish(): StreamEvent[];
  abstract abandon(): StreamEvent[];
  abstract layout(): AssistantLayout | undefined;
}
