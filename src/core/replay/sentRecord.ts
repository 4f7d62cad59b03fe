/**
 * What a request actually sent, as the recorder writes it beside the history (the optional `sent` field of a replay
 * JSONL line): the route and the final body's parameters — after the thinking effort, the catalogue's quirks and the
 * refused parameters were applied (sendBody.ts) — of the request's last attempt, the one that was answered (or the
 * last one tried). A value the endpoint refused during the request is not among them: it is named in `refused`.
 * The history itself stays the trim's input (what the trim measured, so a replay lands on the real cuts); what the
 * final body left out of it (a `reasoning_content` the endpoint refused) is named in `omitted`. Pure.
 */
import { isRouteId, type RouteId } from '../routeId';
import { checkedNativeSizes, type NativeSizes } from '../trim/messageSize';
import { isRecord } from '../util/jsonFields';

export interface SentRecord {
  route: RouteId;
  /** The final body without the conversation (messages, system text, tools): model, limits, effort fields, … */
  params: Record<string, unknown>;
  /** Parameters the route's body had that the final one left out (quirks; a refused one the route's body carries). */
  omitted: string[];
  /** Parameters the endpoint refused during this request: dropped, and the request sent again without them. */
  refused: string[];
  /**
   * What the native items passed back with the line's new messages added to their sizes, by first call id
   * (messageSize.ts); absent when none. Lets a replay measure as the live trim did.
   */
  native?: NativeSizes;
}

/** The body keys that carry the conversation on some route; the line's history and tools stand for them. */
const CONVERSATION_KEYS = new Set(['messages', 'input', 'contents', 'system', 'systemInstruction', 'instructions', 'tools']);

export function sentRecord(route: RouteId, prepared: Record<string, unknown>, final: Record<string, unknown>, refused: readonly string[], native: NativeSizes = {}): SentRecord {
  const params = Object.fromEntries(Object.entries(final).filter(([key]) => !CONVERSATION_KEYS.has(key)));
  const kept = paramNames(final);
  const omitted = [...paramNames(prepared)].filter((name) => !kept.has(name)).sort();
  return { route, params, omitted, refused: [...refused], ...(Object.keys(native).length > 0 ? { native } : {}) };
}

/** Top-level parameters and Gemini's generationConfig ones, and `reasoning_content` when a message carries it. */
function paramNames(body: Record<string, unknown>): Set<string> {
  const names = new Set(Object.keys(body).filter((key) => !CONVERSATION_KEYS.has(key)));
  if (isRecord(body.generationConfig)) for (const key of Object.keys(body.generationConfig)) names.add(key);
  if (Array.isArray(body.messages) && body.messages.some((m) => isRecord(m) && m.reasoning_content !== undefined)) names.add('reasoning_content');
  return names;
}

/** A recorded `sent` field checked; throws a message naming the field (the replay reader adds the line). */
export function checkedSent(value: unknown): SentRecord {
  if (!isRecord(value)) throw new Error('sent: expected an object');
  if (!isRouteId(value.route)) throw new Error(`sent.route: expected one of chat, responses, messages, gemini, got ${JSON.stringify(value.route)}`);
  if (!isRecord(value.params)) throw new Error('sent.params: expected an object');
  const names = (field: 'omitted' | 'refused'): string[] => {
    const list = value[field] ?? [];
    if (!Array.isArray(list) || !list.every((n) => typeof n === 'string')) throw new Error(`sent.${field}: expected an array of names`);
    return list as string[];
  };
  const native = value.native === undefined ? {} : { native: checkedNativeSizes(value.native) };
  return { route: value.route, params: value.params, omitted: names('omitted'), refused: names('refused'), ...native };
}
