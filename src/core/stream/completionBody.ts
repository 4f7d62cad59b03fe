/**
 * A 200 answer that is not an event stream: some gateways answer a streaming request with one JSON body,
 * either a whole chat completion or `{"error": …}`. This turns that body into the frames a stream would have
 * carried (one chunk with the message as its delta, then `[DONE]`), or into the error frame, so the rest of
 * the path reads it like any stream (docs/issues/011). Pure.
 */
import { isRecord } from '../util/isRecord';
import { frameOf, frameOfJson, type StreamFrame } from './streamFrame';

export function framesOfJsonBody(text: string): StreamFrame[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [frameOf(text)];
  }
  if (!isRecord(parsed) || parsed.error || !Array.isArray(parsed.choices)) return [frameOfJson(parsed, text), { kind: 'done' }];
  const chunk = { ...parsed, choices: parsed.choices.map(choiceAsDelta) };
  return [frameOfJson(chunk, text), { kind: 'done' }];
}

/** `{message, finish_reason}` → `{delta, finish_reason}`; a choice that is already a delta stays as it is. */
function choiceAsDelta(choice: unknown): unknown {
  if (!isRecord(choice) || !isRecord(choice.message)) return choice;
  const { message, ...rest } = choice;
  const calls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call, index) => (isRecord(call) ? { index, ...call } : call))
    : message.tool_calls;
  return { ...rest, delta: { ...message, tool_calls: calls } };
}
