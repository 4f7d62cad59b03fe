/**
 * Options for the one `openai` SDK client every route sends through, built so that the environment cannot
 * add anything. The SDK reads process variables when a client is built: OPENAI_BASE_URL, OPENAI_ORG_ID,
 * OPENAI_PROJECT_ID, OPENAI_ADMIN_KEY, OPENAI_WEBHOOK_SECRET, OPENAI_LOG (debug logs request headers to the
 * console) and OPENAI_CUSTOM_HEADERS (which can replace Authorization). Every one of them is given an explicit
 * value here, and a fetch wrapper has the last word: it sends only allow-listed headers, puts the key in the
 * one header the route names (and nowhere else), and refuses any URL outside the configured base URL.
 * (The routes do not use `@anthropic-ai/sdk`, so its ANTHROPIC_* variables are never read: docs/routes.md.)
 */
import type { ClientOptions as OpenAIOptions } from 'openai';
import { redactUrl } from '../util/redact';
import { KEY_HEADER, type KeyHeaderName } from '../routes/headers';
import { EXTENSION_VERSION } from './version';

/** The extension's name as it introduces itself to endpoints (OpenCode asks clients for their own User-Agent). */
export const CLIENT_NAME = 'opencode-chat-provider';
let hostPart = '';

/** The editor it runs in, from the adapter at activation (core never imports vscode). */
export function setHostVersion(vscodeVersion: string): void {
  hostPart = /^[\w.+-]{1,40}$/.test(vscodeVersion) ? ` VSCode/${vscodeVersion}` : '';
}

/** `opencode-chat-provider/0.1.0 VSCode/1.139.0` on every request of every route, never the SDK's own. */
export function userAgent(): string {
  return `${CLIENT_NAME}/${EXTENSION_VERSION}${hostPart}`;
}

const KEY_HEADERS: readonly KeyHeaderName[] = ['authorization', 'x-api-key', 'x-goog-api-key'];

/** Headers that reach the endpoint besides the key: the body's framing and the ones our routes set. */
const ALLOWED_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'user-agent',
  'x-opencode-session',
  'x-opencode-request',
  'x-opencode-client',
  'anthropic-version',
  'anthropic-beta',
]);
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface IsolatedFetchInput {
  baseURL: string;
  /** The key; empty for loopback servers that need none (then no key header is sent). */
  apiKey: string;
}

/** A fetch that sends only what the extension decided, whatever the SDK or the environment added. */
export function isolatedFetch(input: IsolatedFetchInput, inner: typeof fetch = fetch): typeof fetch {
  const base = input.baseURL.replace(/\/+$/, '');
  return (url, init) => {
    const target = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
    if (target !== base && !target.startsWith(`${base}/`) && !target.startsWith(`${base}?`)) {
      return Promise.reject(new Error(`refused to send a request outside the configured endpoint (${redactUrl(target)})`));
    }
    const given = new Headers(init?.headers);
    const headers = new Headers();
    given.forEach((value, name) => {
      if (ALLOWED_HEADERS.has(name)) headers.set(name, value);
    });
    // The SDK's "OpenAI/JS …" (or a minified class name) is replaced: OpenCode lists generic clients as problematic.
    headers.set('user-agent', userAgent());
    const keyHeader = keyHeaderOf(given.get(KEY_HEADER));
    if (input.apiKey) headers.set(keyHeader, keyHeader === 'authorization' ? `Bearer ${input.apiKey}` : input.apiKey);
    return inner(url, { ...init, headers });
  };
}

function keyHeaderOf(value: string | null): KeyHeaderName {
  return KEY_HEADERS.find((name) => name === value) ?? 'authorization';
}

/** `openai` client options: no retries of its own, no logging, no environment, our fetch. */
export function openAIClientOptions(baseURL: string, apiKey: string): OpenAIOptions {
  return {
    baseURL,
    maxRetries: 0,
    timeout: 10 * 60 * 1000,
    logLevel: 'off',
    logger: silent,
    fetch: isolatedFetch({ baseURL, apiKey }),
    // A null default removes a value OPENAI_CUSTOM_HEADERS gave our own headers; a request sets its own.
    defaultHeaders: { 'x-opencode-session': null, 'x-opencode-request': null, 'x-opencode-client': null },
    // The SDK insists on a string; the fetch wrapper decides what (if anything) is sent.
    apiKey: apiKey || 'no-key',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
  };
}
