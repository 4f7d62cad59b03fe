/**
 * Endpoints reject a history where a tool result has no matching call, or a call is not followed by its
 * result (e.g. a cancelled tool run). VS Code can hand us both. This pass makes every assistant tool-call
 * message be followed by exactly one result per call, deterministically, so the repair itself never
 * changes between turns and the cached prefix stays byte-identical.
 */
import type { WireMessage } from '../wire/wireTypes';

export const MISSING_TOOL_RESULT = '(no result: the tool call did not complete)';

export interface RepairReport {
  messages: WireMessage[];
  droppedOrphanResults: number;
  addedMissingResults: number;
}

export function repairToolPairs(messages: readonly WireMessage[]): RepairReport {
  const out: WireMessage[] = [];
  let pending: string[] = [];
  let droppedOrphanResults = 0;
  let addedMissingResults = 0;

  const closePending = (): void => {
    for (const id of pending) {
      out.push({ role: 'tool', tool_call_id: id, content: MISSING_TOOL_RESULT });
      addedMissingResults++;
    }
    pending = [];
  };

  for (const message of messages) {
    if (message.role === 'tool') {
      const at = pending.indexOf(message.tool_call_id);
      if (at === -1) {
        droppedOrphanResults++;
        continue;
      }
      pending.splice(at, 1);
      out.push(message);
      continue;
    }
    closePending();
    out.push(message);
    if (message.role === 'assistant' && message.tool_calls) {
      pending = message.tool_calls.map((call) => call.id);
    }
  }
  closePending();
  return { messages: out, droppedOrphanResults, addedMissingResults };
}
