/**
 * One GET of the Go usage endpoint with the Bearer key. Every failure becomes a short reason a user can act
 * on; the key is sent in the header only and never appears in a reason or a log line. The status is read
 * before the body, and the body is read only up to MAX_USAGE_BYTES: a misbehaving endpoint (or a proxy's error
 * page of hundreds of MB) costs at most that much memory, never the whole answer.
 */
import { parseGoUsage, type ParsedUsage } from './goUsage';
import { readAtMost } from '../util/boundedBody';

/** The part of a fetch Response this file reads; `body` absent (test doubles) falls back to text(). */
export interface FetchedAnswer {
  status: number;
  body?: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}

export type FetchLike = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<FetchedAnswer>;

export const FETCH_TIMEOUT_MS = 10_000;
/** A real usage answer is under 1 KB; anything beyond this is not one. */
export const MAX_USAGE_BYTES = 64 * 1024;

function statusReason(status: number): string {
  if (status === 401 || status === 403) return `the endpoint refused the API key (HTTP ${status})`;
  if (status === 404) return 'this endpoint has no usage page (HTTP 404)';
  if (status === 429) return 'asked too often (HTTP 429)';
  if (status >= 500) return `the endpoint failed (HTTP ${status})`;
  return `unexpected HTTP ${status}`;
}

export async function fetchGoUsage(url: string, apiKey: string, fetchImpl: FetchLike = fetch as unknown as FetchLike, timeoutMs = FETCH_TIMEOUT_MS): Promise<ParsedUsage> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchImpl(url, { headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' }, signal: controller.signal });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, reason: statusReason(response.status) };
    }
    const text = await boundedText(response, MAX_USAGE_BYTES);
    if (text === undefined) return { ok: false, reason: `the answer is larger than ${MAX_USAGE_BYTES / 1024} KB, not a usage page` };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, reason: 'the answer is not JSON' };
    }
    return parseGoUsage(body);
  } catch (error) {
    if (controller.signal.aborted) return { ok: false, reason: `no answer within ${Math.round(timeoutMs / 1000)} s` };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, reason: `network error${cause ? ` (${cause})` : ''}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The body as text, or undefined once it passes `maxBytes` (the rest is never read: the stream is cancelled). */
export async function boundedText(response: FetchedAnswer, maxBytes: number): Promise<string | undefined> {
  if (!response.body) {
    const text = await response.text();
    return Buffer.byteLength(text) > maxBytes ? undefined : text;
  }
  return readAtMost(response.body, maxBytes);
}
