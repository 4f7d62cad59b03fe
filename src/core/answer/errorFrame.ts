/**
 * The error an SSE payload carries, whatever the route: an `event: error` frame (with or without a `type` in its
 * data, JSON or plain text), a `{"type": "error", …}` payload (Responses, Messages), or an `error` field (chat,
 * Gemini, gateways). One rule for every route, so a gateway's "Overloaded" is read as the error it is.
 */
import { filledString, isRecord } from '../util/jsonFields';

export function errorOfPayload(payload: unknown, eventName?: string): Record<string, unknown> | undefined {
  if (eventName === 'error') {
    if (!isRecord(payload)) return { message: String(payload) };
    return errorField(payload.error) ?? payload;
  }
  if (!isRecord(payload)) return undefined;
  if (payload.type === 'error') return errorField(payload.error) ?? withoutType(payload);
  return errorField(payload.error);
}

function errorField(value: unknown): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  const message = filledString(value);
  return message === undefined ? undefined : { message };
}

/** `{"type": "error", "message": …}`: the type says only that it is an error. */
function withoutType(payload: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, ...rest } = payload;
  return rest;
}
