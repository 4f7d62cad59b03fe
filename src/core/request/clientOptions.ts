/**
 * Client options for the `openai` and `@anthropic-ai/sdk` SDKs that ignore the environment. Both SDKs read
 * process variables when a client is built: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, OPENAI_ORG_ID,
 * OPENAI_PROJECT_ID, OPENAI_ADMIN_KEY, OPENAI_WEBHOOK_SECRET, ANTHROPIC_AUTH_TOKEN,
 * ANTHROPIC_WEBHOOK_SIGNING_KEY, the *_LOG level (debug logs request headers to the console), the
 * OPENAI_CUSTOM_HEADERS / ANTHROPIC_CUSTOM_HEADERS header lists (which can replace Authorization), and the
 * ANTHROPIC_OPEN_TELEMETRY* switches (trace-propagation headers). Every one of them is given an explicit
 * value here, and a fetch wrapper is the last word: it sends only allow-listed headers, sets the auth
 * header to ours, and refuses any URL outside the configured base URL.
 */
import type { ClientOptions as OpenAIOptions } from 'openai';
import type { ClientOptions as AnthropicOptions } from '@anthropic-ai/sdk';
import { redactUrl } from '../util/redact';

/** Headers the SDKs themselves set that we let through (the `x-stainless-*` ones are fixed SDK metadata). */
const SDK_HEADERS = ['accept', 'content-type', 'content-length', 'user-agent', 'idempotency-key'];
const OUR_HEADERS = ['x-opencode-session', 'x-opencode-request'];
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface IsolatedFetchInput {
  baseURL: string;
  /** The auth headers this extension sends, exactly (lower-case names). */
  auth: Record<string, string>;
  /** Extra header names a route may send (e.g. anthropic-version). */
  allow?: readonly string[];
}

/** A fetch that sends only what the extension decided, whatever the SDK or the environment added. */
export function isolatedFetch(input: IsolatedFetchInput, inner: typeof fetch = fetch): typeof fetch {
  const allowed = new Set([...SDK_HEADERS, ...OUR_HEADERS, ...(input.allow ?? []).map((h) => h.toLowerCase())]);
  const base = input.baseURL.replace(/\/+$/, '');
  return (url, init) => {
    const target = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
    if (target !== base && !target.startsWith(`${base}/`) && !target.startsWith(`${base}?`)) {
      return Promise.reject(new Error(`refused to send a request outside the configured endpoint (${redactUrl(target)})`));
    }
    const headers = new Headers();
    new Headers(init?.headers).forEach((value, name) => {
      if (allowed.has(name) || name.startsWith('x-stainless-')) headers.set(name, value);
    });
    for (const [name, value] of Object.entries(input.auth)) headers.set(name, value);
    return inner(url, { ...init, headers });
  };
}

/** Options shared by both SDKs: no retries of their own, no logging, our fetch. */
function commonOptions(baseURL: string, auth: Record<string, string>, allow?: readonly string[]) {
  return {
    baseURL,
    maxRetries: 0,
    timeout: 10 * 60 * 1000,
    logLevel: 'off' as const,
    logger: silent,
    fetch: isolatedFetch({ baseURL, auth, allow }),
    // A null default removes a value an *_CUSTOM_HEADERS variable gave our own headers; a request sets its own.
    defaultHeaders: Object.fromEntries(OUR_HEADERS.map((name) => [name, null])),
  };
}

/** `openai` client options; the Authorization header carries `apiKey` and nothing else. */
export function openAIClientOptions(baseURL: string, apiKey: string): OpenAIOptions {
  return {
    ...commonOptions(baseURL, { authorization: `Bearer ${apiKey}` }),
    apiKey,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
  };
}

export interface AnthropicAuth {
  /** Send the key as `Authorization: Bearer` (gateways) instead of `x-api-key` (Anthropic's own). */
  bearer?: boolean;
  /** Header names the route sends besides the SDK's; default anthropic-version and anthropic-beta. */
  allow?: readonly string[];
}

/** `@anthropic-ai/sdk` client options: one auth header, no env credentials, no tracing. */
export function anthropicClientOptions(baseURL: string, apiKey: string, auth: AnthropicAuth = {}): AnthropicOptions {
  const allow = auth.allow ?? ['anthropic-version', 'anthropic-beta'];
  const header: Record<string, string> = auth.bearer ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': apiKey };
  return {
    ...commonOptions(baseURL, header, allow),
    apiKey: auth.bearer ? null : apiKey,
    authToken: auth.bearer ? apiKey : null,
    webhookKey: null,
    openTelemetry: false,
  };
}
