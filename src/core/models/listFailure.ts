/**
 * Why an endpoint's `GET /models` failed, in the user's terms: what failed (the host was not found, nothing
 * answers, no answer in time, the key was refused, …) and what to do about that failure — not "check the API key"
 * for a DNS error. The kind is also the unit of "one warning per failure kind and endpoint" (ModelList).
 */
import { APIConnectionTimeoutError, APIError } from 'openai';

export type ListFailureKind = 'dns' | 'refused' | 'timeout' | 'unauthorized' | 'forbidden' | 'tls' | 'http' | 'other';

export interface ListFailure {
  kind: ListFailureKind;
  /** What failed, a phrase: "the host opencode.ai was not found (DNS)". */
  what: string;
  /** What to do, a sentence. */
  todo: string;
  /** Short, for the picker's detail: "unreachable (DNS)". */
  mark: string;
}

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const REFUSED = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const TIMEOUT = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

/** The error and its causes (a few levels), each with its code and message. */
function chain(error: unknown): { code: string; message: string; name: string }[] {
  const out: { code: string; message: string; name: string }[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const record = current as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
    out.push({ code: typeof record.code === 'string' ? record.code : '', message: typeof record.message === 'string' ? record.message : String(current), name: typeof record.name === 'string' ? record.name : '' });
    current = typeof current === 'object' ? record.cause : undefined;
  }
  return out;
}

function kindOf(error: unknown): { kind: ListFailureKind; status?: number; code?: string } {
  if (error instanceof APIError && typeof error.status === 'number') {
    if (error.status === 401) return { kind: 'unauthorized', status: 401 };
    if (error.status === 403) return { kind: 'forbidden', status: 403 };
    return { kind: 'http', status: error.status };
  }
  const links = chain(error);
  for (const { code, message, name } of links) {
    const word = code || /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/.exec(message)?.[1] || '';
    if (DNS.has(word)) return { kind: 'dns', code: word };
    if (REFUSED.has(word)) return { kind: 'refused', code: word };
    if (TIMEOUT.has(word) || name === 'TimeoutError') return { kind: 'timeout', code: word || undefined };
    if (/CERT|SSL|TLS|SELF_SIGNED/i.test(word)) return { kind: 'tls', code: word };
  }
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  return { kind: 'other' };
}

export function classifyListFailure(error: unknown, host: string, hasKey: boolean): ListFailure {
  const { kind, status, code } = kindOf(error);
  switch (kind) {
    case 'dns':
      return { kind, mark: 'unreachable (DNS)', what: `the host ${host} was not found (DNS: ${code})`, todo: 'Check your network connection (or proxy) and the endpoint\'s URL; the models are listed from the last good list until it answers.' };
    case 'refused':
      return { kind, mark: 'unreachable (refused)', what: `nothing answers at ${host} (${code})`, todo: 'Start the server, or check the URL\'s host and port; the models are listed from the last good list until it answers.' };
    case 'timeout':
      return { kind, mark: 'unreachable (timeout)', what: `${host} did not answer in time`, todo: 'Check your network connection or proxy; it is tried again on the next refresh.' };
    case 'tls':
      return { kind, mark: 'unreachable (TLS)', what: `the secure connection to ${host} failed (${code})`, todo: 'Check the URL (https://) and any proxy certificate (NODE_EXTRA_CA_CERTS).' };
    case 'unauthorized':
      return { kind, mark: 'key refused (401)', what: `${host} refused the ${hasKey ? 'API key' : 'request without a key'} (401)`, todo: `${hasKey ? 'Set a new key' : 'Set a key'} with "OpenCode: Set API Key".` };
    case 'forbidden':
      return { kind, mark: 'access denied (403)', what: `${host} denied access (403)`, todo: 'Check that the key\'s plan includes this endpoint, or set another key with "OpenCode: Set API Key".' };
    case 'http':
      return { kind, mark: `HTTP ${status}`, what: `${host} answered HTTP ${status} to GET /models`, todo: status === 404 ? 'Check the endpoint\'s URL (an OpenAI-compatible base URL usually ends in /v1).' : 'It is tried again on the next refresh; run "OpenCode: Show Log" for the answer.' };
    default:
      return { kind, mark: 'unreachable', what: `${host} could not be reached`, todo: 'Run "OpenCode: Show Log" for the details.' };
  }
}
