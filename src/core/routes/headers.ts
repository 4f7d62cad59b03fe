/**
 * The headers every route sends: OpenCode's routing headers, plus the key where the route's endpoint reads
 * it (Bearer for chat and Responses, only `x-api-key` for /messages — OpenCode ignores Bearer there).
 */
import type { HeaderInput } from './route';

export function openCodeHeaders(input: HeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'x-opencode-session': input.sessionId,
    'x-opencode-request': input.requestId,
  };
  if (input.client) headers['x-opencode-client'] = input.client;
  return headers;
}

export function bearerHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), ...(input.apiKey ? { authorization: `Bearer ${input.apiKey}` } : {}) };
}

export function apiKeyHeaders(input: HeaderInput): Record<string, string> {
  return { ...openCodeHeaders(input), ...(input.apiKey ? { 'x-api-key': input.apiKey } : {}) };
}
