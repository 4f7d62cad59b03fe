/**
 * One GET of the Go usage endpoint with the Bearer key. Every failure becomes a short reason a user can act
 * on; the key is sent in the header only and never appears in a reason or a log line.
 */
import { parseGoUsage, type ParsedUsage } from './goUsage';

export type FetchLike = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<{ status: number; text(): Promise<string> }>;

export const FETCH_TIMEOUT_MS = 10_000;

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
    const text = await response.text();
    if (response.status !== 200) return { ok: false, reason: statusReason(response.status) };
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
