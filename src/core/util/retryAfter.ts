/**
 * The one reader of `Retry-After` (seconds or an HTTP date) and `retry-after-ms`: the retry policy waits by it
 * and the Go usage-limit error says when the window resets by it, so both read the same header the same way.
 */

/** Milliseconds to wait, or undefined when the header says nothing usable. `ms` (retry-after-ms) wins. */
export function retryAfterMsOf(retryAfter: string | null | undefined, ms?: string | null, now = Date.now()): number | undefined {
  const exact = ms ? Number(ms.trim()) : NaN;
  if (Number.isFinite(exact)) return Math.max(0, exact);
  const raw = retryAfter?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
