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

/*
 * outsideText: the one helper for text from outside (model ids from /models, endpoint labels from settings) that goes into a
 * log line or a message: control characters, line and paragraph separators and bidirectional overrides are
 * written as escapes (a newline in an id cannot forge a log line, an override cannot reorder it), and the text is
 * cut to a bounded length (50,000 ids, or one id of a megabyte, cannot make a megabyte line). Pure; the same text
 * gives the same result.
 */
/** Longest id or label a line quotes; real ids are under 100 characters. */
export const OUTSIDE_TEXT_MAX = 120;

// C0 and C1 controls, DEL, line/paragraph separators, bidi embeddings, overrides and isolates, BOM.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function outsideText(text: string, max = OUTSIDE_TEXT_MAX): string {
  // Never half a surrogate pair at the cut.
  const head = text.length > max ? text.slice(0, /[\ud800-\udbff]/.test(text[max - 1]) ? max - 1 : max) : text;
  const escaped = head.replace(UNSAFE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > max ? `${escaped}…(${text.length} characters)` : escaped;
}

/** A list of outside ids for one line: each escaped and cut, at most `count` of them, the rest counted. */
export function outsideList(items: readonly string[], count = 40): string {
  const shown = items.slice(0, count).map((item) => outsideText(item));
  return items.length > count ? `${shown.join(', ')}, … and ${items.length - count} more` : shown.join(', ');
}
