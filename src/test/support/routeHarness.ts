/**
 * Drives a route's stream reader the way the transport will: bytes split anywhere → SSE events (data and event
 * name) → shown events; then, as the engine reports it, the answer's usage once at the end.
 */
import type { StreamReader } from '../../core/answer/streamReader';
import type { StreamEvent } from '../../core/types';
import { SseDecoder, type SseEvent } from '../../core/stream/answerStream';

export interface ReadOutcome {
  events: StreamEvent[];
  errors: Record<string, unknown>[];
  malformed: string[];
}

/** Feeds `bytes` to the reader in pieces cut at `cuts` (byte offsets, any order), then finishes it. */
export function readSplit(reader: StreamReader, text: string, cuts: readonly number[] = []): ReadOutcome {
  const bytes = Buffer.from(text, 'utf8');
  const points = [...new Set(cuts.map((c) => Math.max(0, Math.min(bytes.length, c))))].sort((a, b) => a - b);
  const utf8 = new TextDecoder();
  const sse = new SseDecoder();
  const outcome: ReadOutcome = { events: [], errors: [], malformed: [] };
  const take = (payloads: SseEvent[]): void => {
    for (const payload of payloads) {
      const notJson = reader.result().skipped.notJson;
      const result = reader.push(payload.data, payload.event);
      outcome.events.push(...result.events);
      if (result.error) outcome.errors.push(result.error);
      // A payload the reader skipped as not JSON: the answer's count of them went up.
      if (reader.result().skipped.notJson > notJson) outcome.malformed.push(payload.data);
    }
  };
  let start = 0;
  for (const point of [...points, bytes.length]) {
    take(sse.push(utf8.decode(bytes.subarray(start, point), { stream: true })));
    start = point;
  }
  take(sse.push(utf8.decode()));
  take(sse.flush());
  outcome.events.push(...reader.finish(), ...usageEvent(reader));
  return outcome;
}

/** The answer's usage as one event, the way the engine hands it to VS Code after the stream. */
export function usageEvent(reader: StreamReader): StreamEvent[] {
  const usage = reader.result().usage;
  return usage ? [{ kind: 'usage', usage }] : [];
}

export function textOf(events: readonly StreamEvent[], kind: 'text' | 'thinking'): string {
  return events.map((e) => (e.kind === kind ? e.text : '')).join('');
}

export function callsOf(events: readonly StreamEvent[]): { callId: string; name: string; input: object }[] {
  return events.flatMap((e) => (e.kind === 'toolCall' ? [{ callId: e.callId, name: e.name, input: e.input }] : []));
}

export function lastUsage(events: readonly StreamEvent[]) {
  const usages = events.flatMap((e) => (e.kind === 'usage' ? [e.usage] : []));
  return usages[usages.length - 1];
}
