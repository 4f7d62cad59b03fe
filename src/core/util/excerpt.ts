/**
 * A piece of foreign text (an error body, a transport message) fit for one log line or one sentence: an HTML
 * page reduced to its text, whitespace collapsed, cut to a few hundred characters, secrets redacted. A gateway's
 * HTML error page is kilobytes (docs/issues/014); it must not reach a [retry] or [error] line whole.
 */
import { redact } from './redact';

/** Longest detail a [retry] line carries. */
export const RETRY_DETAIL_MAX = 200;
/** Longest detail an [error] line carries (longer: it may end in the cause chain). */
export const ERROR_DETAIL_MAX = 400;

export function excerptOf(detail: string, max = RETRY_DETAIL_MAX, secrets: readonly (string | undefined)[] = []): string {
  const html = /<(?:!doctype|html|head|body)\b/i.test(detail);
  const text = (html ? detail.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ') : detail).replace(/\s+/g, ' ').trim();
  // Redacted before the cut, so that a key is never left half-visible at the end of the excerpt.
  const clean = redact(text, secrets);
  return clean.length > max ? `${clean.slice(0, max)}… (${detail.length} characters in all)` : clean;
}
