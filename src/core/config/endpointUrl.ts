/**
 * What an endpoint URL may be: http(s), without credentials, query or fragment. A URL with userinfo cannot be fetched
 * (and would show a password in every log line); a query string would be glued in front of `/chat/completions` and
 * usually carries a key. The key belongs in "OpenCode: Set API Key".
 */
import { redact, redactUrl } from '../util/redact';

/** Why the value cannot be an endpoint URL (a phrase, the value redacted), or undefined when it can. */
export function urlProblem(raw: unknown): string | undefined {
  const url = typeof raw === 'string' ? parsed(raw.trim()) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return `${redact(JSON.stringify(raw) ?? String(raw))} is not an http(s) URL`;
  const extra = [url.username || url.password ? 'a user name or password' : '', url.search ? 'a query string' : '', url.hash ? 'a fragment' : ''].filter(Boolean);
  if (extra.length) return `${redactUrl(url.href)} contains ${extra.join(' and ')}, which cannot be sent safely (put the key in "OpenCode: Set API Key" and remove everything after the path)`;
  return undefined;
}

/** The URL as requests use it (no trailing slash); undefined when urlProblem() has one. */
export function parsedHttpUrl(raw: string): string | undefined {
  if (urlProblem(raw)) return undefined;
  return (parsed(raw.trim()) as URL).toString().replace(/\/+$/, '');
}

function parsed(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
