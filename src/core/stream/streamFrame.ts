/**
 * One SSE `data` payload of a chat-completion stream → what it means: a chunk, the `[DONE]` marker, an
 * error the gateway sent inside the stream, or a payload that is not JSON at all. Pure; the transport
 * decides what to do with each (docs/reliability.md: malformed payloads are skipped and logged).
 */
import type { ChunkLike } from './streamMapper';

export type StreamFrame =
  | { kind: 'chunk'; chunk: ChunkLike }
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
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { kind: 'malformed', raw: data };
  const error = (parsed as { error?: unknown }).error;
  if (error) return { kind: 'error', error: typeof error === 'object' ? (error as Record<string, unknown>) : { message: String(error) } };
  return { kind: 'chunk', chunk: parsed as ChunkLike };
}

/** A short, single-line preview of a bad payload for the log (never the whole thing). */
export function previewOf(raw: string, max = 60): string {
  const oneLine = raw.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine);
}
