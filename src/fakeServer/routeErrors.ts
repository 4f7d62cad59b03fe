/** The errors OpenCode's gateway and Anthropic send on the native routes, worded as they are. */
import type { ErrorReply } from './errors';
import type { FakeRoute } from './types';

/** The gateway's format name for each route. */
export const ROUTE_FORMATS: Record<FakeRoute, string> = { chat: 'oa-compat', responses: 'openai', messages: 'anthropic', gemini: 'google' };

/** A model called on a route it is not served on: OpenCode answers 401 (not 400) with a ModelError. */
export function wrongFormat(modelId: string, route: FakeRoute): ErrorReply {
  return { status: 401, body: { type: 'error', error: { type: 'ModelError', message: `Model ${modelId} is not supported for format ${ROUTE_FORMATS[route]}` } } };
}

/** OpenCode's /messages reads the key only from x-api-key. */
export function anthropicAuth(missing: boolean): ErrorReply {
  return { status: 401, body: { type: 'error', error: { type: 'AuthError', message: missing ? 'Missing API key.' : 'Invalid API key.' } } };
}

export function anthropicInvalid(message: string): ErrorReply {
  return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } };
}

export function tooManyBreakpoints(found: number): ErrorReply {
  return anthropicInvalid(`A maximum of 4 blocks with cache_control may be provided. Found ${found}.`);
}

/** The frame OpenCode appends after every anthropic/openai-format stream (its cost), which clients must ignore. */
export function costFrame(cost: number): string {
  return `event: ping\ndata: ${JSON.stringify({ type: 'ping', cost: cost.toFixed(6) })}\n\n`;
}

export function namedFrame(payload: { type: string } & Record<string, unknown>): string {
  return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}
