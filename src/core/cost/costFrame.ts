/**
 * OpenCode's cost frame: after every stream the gateway appends one more SSE payload with the request's cost in
 * dollars (chat: `{"choices":[],"cost":"0.0123"}` after `[DONE]`; Responses, Messages and Gemini:
 * `{"type":"ping","cost":"0.0123"}`, after the end event where the route has one). Route-neutral: the same rule
 * reads it on every route. Pure.
 */
import { isNonNegative, isRecord } from '../util/jsonFields';

/**
 * No single request costs this much (the dearest model's whole window and output are a few dollars): a larger
 * reported cost is no cost at all (then the prices compute it, if known), never `$1e+30` or `$Infinity` in a sum.
 */
export const MAX_REPORTED_USD = 10_000;

/** The payload's cost in USD when it is OpenCode's cost frame with a believable cost, else undefined (never throws). */
export function reportedCostOf(data: unknown): number | undefined {
  // Cheap test first: this runs on every payload of every answer.
  if (typeof data === 'string' && !data.includes('"cost"')) return undefined;
  const payload = typeof data === 'string' ? parsed(data) : data;
  if (!isRecord(payload) || !isCostFrame(payload)) return undefined;
  const raw = payload.cost;
  const usd = typeof raw === 'string' && /^\s*\d+(\.\d+)?([eE]-?\d+)?\s*$/.test(raw) ? Number(raw) : raw;
  return isNonNegative(usd) && usd <= MAX_REPORTED_USD ? usd : undefined;
}

/** The frame's two shapes: a `ping`, or a chat chunk without choices; anything else with a `cost` is not it. */
function isCostFrame(payload: Record<string, unknown>): boolean {
  if (!('cost' in payload)) return false;
  return payload.type === 'ping' || (Array.isArray(payload.choices) && payload.choices.length === 0);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
