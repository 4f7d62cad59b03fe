/**
 * Redirects, decided by the extension instead of the platform's fetch. Node's fetch follows a 307 to any host and
 * replays the body there, dropping only `Authorization`: the Messages route's `x-api-key`, Gemini's
 * `x-goog-api-key` and the whole conversation would reach a host the user never configured. So every request is
 * sent with `redirect: 'manual'`; a redirect is followed only when its target is inside the configured base URL
 * (same origin, under the base path), at most MAX_REDIRECTS times; any other one fails the request with an error
 * naming which URL redirected where, and nothing is sent to the other host. Route-neutral: every route, and the
 * model list, send through the one fetch wrapper (clientOptions.ts).
 */
import { redactUrl } from '../util/redact';

/** Enough for a trailing-slash or a versioned-path move; a loop ends here. */
export const MAX_REDIRECTS = 5;

/** A redirect the extension refused to follow: to another origin, outside the base URL, or one too many. */
export class RedirectRefusedError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly reason: 'outside' | 'too-many' | 'unreadable',
  ) {
    super(redirectSentence(from, to, reason));
    this.name = 'RedirectRefusedError';
  }
}

function redirectSentence(from: string, to: string, reason: RedirectRefusedError['reason']): string {
  const hop = `${redactUrl(from)} redirected to ${redactUrl(to)}`;
  if (reason === 'too-many') return `${hop}, more than ${MAX_REDIRECTS} redirects in a row; the request was stopped.`;
  if (reason === 'unreadable') return `${hop}, which cannot be followed (no usable Location); the request was stopped.`;
  return `${hop}, outside the configured endpoint; the redirect was not followed and nothing was sent there.`;
}

/** True when `target` is the base URL itself or a path under it (same scheme, host and port). */
export function isInsideBase(base: string, target: string): boolean {
  const root = base.replace(/\/+$/, '');
  return target === root || target.startsWith(`${root}/`) || target.startsWith(`${root}?`);
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A fetch that follows redirects only inside `base`; `send` is the inner fetch, always called with redirect 'manual'. */
export async function fetchWithinBase(base: string, url: string, init: RequestInit | undefined, send: typeof fetch): Promise<Response> {
  let current = url;
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hops = 0; ; hops++) {
    const response = await send(current, request);
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    const location = response.headers.get('location');
    const next = location === null ? undefined : resolved(location, current);
    // The redirect's own body is never read: release the connection.
    void response.body?.cancel().catch(() => undefined);
    if (next === undefined) throw new RedirectRefusedError(current, location ?? '(none)', 'unreadable');
    if (!isInsideBase(base, next)) throw new RedirectRefusedError(current, next, 'outside');
    if (hops + 1 > MAX_REDIRECTS) throw new RedirectRefusedError(current, next, 'too-many');
    request = nextRequest(request, response.status);
    current = next;
  }
}

/** 307/308 repeat the request as it was; 301/302 after a POST and every 303 become a GET without a body (as fetch does). */
function nextRequest(request: RequestInit, status: number): RequestInit {
  const method = (request.method ?? 'GET').toUpperCase();
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    const headers = new Headers(request.headers);
    for (const name of ['content-type', 'content-length']) headers.delete(name);
    return { ...request, method: 'GET', body: undefined, headers };
  }
  return request;
}

function resolved(location: string, current: string): string | undefined {
  try {
    return new URL(location, current).href;
  } catch {
    return undefined;
  }
}

/** The refused redirect behind an error (the SDK wraps what the fetch threw as an APIConnectionError's cause). */
export function refusedRedirectOf(error: unknown): RedirectRefusedError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof RedirectRefusedError) return e;
  }
  return undefined;
}
