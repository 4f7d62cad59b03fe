/**
 * The headers every route sends: OpenCode's routing headers, plus the key where the route's endpoint reads
 * it (Bearer for chat and Responses, only `x-api-key` for /messages — OpenCode ignores Bearer there).
 */
import type { HeaderInput } from './route';

/**
 * Internal request header naming where the route wants the key: `authorization` (Bearer, the default),
 * `x-api-key` (/messages) or `x-goog-api-key` (Gemini). The fetch wrapper consumes it; it is never sent.
 */
export const KEY_HEADER = 'x-opencode-key-header';
export type KeyHeaderName = 'authorization' | 'x-api-key' | 'x-goog-api-key';

export function openCodeHeaders(input: HeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'x-opencode-session': input.sessionId,
    'x-opencode-request': input.requestId,
  };
  if (input.client) headers['x-opencode-client'] = input.client;
  return headers;
}

/** Chat and Responses: the key as `Authorization: Bearer` (the client's fetch wrapper adds it). */
export function bearerHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), [KEY_HEADER]: 'authorization' };
}

/** /messages: the key only as `x-api-key` (OpenCode ignores Bearer there). */
export function apiKeyHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), [KEY_HEADER]: 'x-api-key' };
}

/** Anthropic Messages: `x-api-key` and the API version header. */
export function anthropicHeaders(input: HeaderInput): Record<string, string> {
  return { ...apiKeyHeaders(input), 'anthropic-version': '2023-06-01' };
}

/** Gemini: the key only as `x-goog-api-key`. */
export function googleKeyHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), [KEY_HEADER]: 'x-goog-api-key' };
}
