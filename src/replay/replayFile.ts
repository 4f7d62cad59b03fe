/**
 * Reads replay JSONL: line 1 is `{"messages":[…],"tools":[…]}`; every later line is a whole request of
 * that form or `{"append":[…]}` (the previous request's messages plus these). Blank lines are skipped;
 * a malformed line is an error naming its line number.
 */
import type { WireMessage, WireTool } from '../core/wire/wireTypes';

export interface ReplayRequest {
  messages: WireMessage[];
  tools: WireTool[];
}

export function parseReplayLines(lines: Iterable<string>): ReplayRequest[] {
  const requests: ReplayRequest[] = [];
  let lineNumber = 0;
  for (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    let entry: { messages?: unknown; tools?: unknown; append?: unknown };
    try {
      entry = JSON.parse(line);
    } catch (error) {
      throw new Error(`line ${lineNumber}: not JSON (${(error as Error).message})`);
    }
    const previous = requests[requests.length - 1];
    if (Array.isArray(entry.append)) {
      if (!previous) throw new Error(`line ${lineNumber}: "append" before any whole request`);
      requests.push({ messages: [...previous.messages, ...(entry.append as WireMessage[])], tools: previous.tools });
    } else if (Array.isArray(entry.messages)) {
      requests.push({ messages: entry.messages as WireMessage[], tools: Array.isArray(entry.tools) ? (entry.tools as WireTool[]) : [] });
    } else {
      throw new Error(`line ${lineNumber}: expected "messages" or "append"`);
    }
  }
  return requests;
}
