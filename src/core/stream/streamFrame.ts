/**
 * One SSE `data` payload of a chat-completion stream → what it means: a chunk (checked by chunkShape.ts), the
 * `[DONE]` marker, an error the gateway sent inside the stream, or a payload that is not a JSON object at all.
 * Pure; the transport decides what to do with each (docs/reliability.md: malformed payloads are skipped and
 * logged; a chunk with a field of the wrong type keeps its good fields and is logged the same way).
 */
import { checkChunk, type Chunk } from './chunkShape';
import { isRecord } from '../util/jsonFields';

export type StreamFrame =
  /** `raw` is set when fields of the wrong type were dropped (`problems` of them). */
  | { kind: 'chunk'; chunk: Chunk; problems: number; raw?: string }
  | { kind: 'done' }
  | { kind: 'malformed'; raw: string }
  | { kind: 'error'; error: Record<string, unknown> };

export function frameOf(data: string): StreamFrame {
  if (data.trim().startsWith('[DONE]')) return { kind: 'done' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return { kind: 'malformed', raw: data };
  }
  return frameOfJson(parsed, data);
}

/** A parsed payload (or a whole JSON body, see completionBody.ts) → its frame. */
export function frameOfJson(parsed: unknown, raw: string): StreamFrame {
  if (!isRecord(parsed)) return { kind: 'malformed', raw };
  const error = parsed.error;
  if (error) return { kind: 'error', error: isRecord(error) ? error : { message: String(error) } };
  const { chunk, problems } = checkChunk(parsed);
  return problems > 0 ? { kind: 'chunk', chunk, problems, raw } : { kind: 'chunk', chunk, problems };
}

/** A short, single-line preview of a bad payload for the log (never the whole thing). */
export function previewOf(raw: string, max = 60): string {
  const oneLine = raw.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine);
}
