import { isRecord } from '../util/jsonFields';
/**
 * A 200 answer that is not an event stream: some gateways answer a streaming request with one JSON body, a whole
 * chat completion. This turns it into the chunk a stream would have carried (the message as its delta), so the
 * chat reader reads it like any stream (docs/issues/011). `{"error": …}` bodies are errors on every route
 * (core/answer/errorFrame.ts). Pure.
 */

export function chunkOfCompletion(parsed: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(parsed.choices)) return parsed;
  return { ...parsed, choices: parsed.choices.map(choiceAsDelta) };
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
