/**
 * Reads replay JSONL: line 1 is `{"messages":[…],"tools":[…]}`; every later line is a whole request of
 * that form or `{"append":[…]}` (the previous request's messages plus these). Either may carry `"sent":{…}`,
 * what the request finally sent (core/replay/sentRecord.ts; recordings from before it have none). Blank lines
 * are skipped, and so is a byte order mark before line 1; a malformed line is an error naming its line number and the field (replayValidate.ts).
 */
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { checkedSent, type SentRecord } from './sentRecord';
import { checkedMessages, checkedTools } from './replayValidate';
import { type NativeSizeMap } from '../trim/messageSize';
import { isRecord } from '../util/jsonFields';

export interface ReplayRequest {
  messages: WireMessage[];
  tools: WireTool[];
  /** What the recorded request finally sent; absent in recordings from before it was written, and in hand-made files. */
  sent?: SentRecord;
  /** Native sizes recorded up to this line (`sent.native` of this and earlier lines), by first call id. */
  native?: NativeSizeMap;
}

const BOM = '\uFEFF';

export function parseReplayLines(lines: Iterable<string>): ReplayRequest[] {
  const requests: ReplayRequest[] = [];
  let lineNumber = 0;
  for (const raw of lines) {
    lineNumber++;
    // A file saved by an editor that writes a byte order mark: the mark is not part of the JSON.
    const line = lineNumber === 1 && raw.startsWith(BOM) ? raw.slice(1) : raw;
    if (!line.trim()) continue;
    try {
      requests.push(withNative(requestOf(line, requests[requests.length - 1]), requests[requests.length - 1]));
    } catch (error) {
      throw new Error(`line ${lineNumber}: ${(error as Error).message}`);
    }
  }
  return requests;
}

/**
 * The native sizes known at this request: an append line's own plus the earlier lines'; a whole line's own only
 * (it wrote every message, with the sizes they had then). An append line shares the previous request's tools.
 */
function withNative(request: ReplayRequest, previous: ReplayRequest | undefined): ReplayRequest {
  const inherited = previous && request.tools === previous.tools ? previous.native : undefined;
  const own = Object.entries(request.sent?.native ?? {});
  if (own.length === 0) return inherited ? { ...request, native: inherited } : request;
  return { ...request, native: new Map([...(inherited ?? []), ...own]) };
}

/** One line: a whole request, or an append to the previous one. Throws a message naming the field. */
function requestOf(line: string, previous: ReplayRequest | undefined): ReplayRequest {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
  if (!isRecord(entry)) throw new Error('expected an object with "messages" or "append"');
  const sent = entry.sent === undefined ? {} : { sent: checkedSent(entry.sent) };
  if (entry.append !== undefined) {
    if (!Array.isArray(entry.append)) throw new Error('append: expected an array of messages');
    if (!previous) throw new Error('"append" before any whole request');
    return { messages: [...previous.messages, ...checkedMessages(entry.append, 'append')], tools: previous.tools, ...sent };
  }
  if (!Array.isArray(entry.messages)) throw new Error(entry.messages === undefined ? 'expected "messages" or "append"' : 'messages: expected an array');
  if (entry.tools !== undefined && !Array.isArray(entry.tools)) throw new Error('tools: expected an array');
  if (entry.messages.length === 0) throw new Error('messages: expected at least one message');
  return { messages: checkedMessages(entry.messages, 'messages'), tools: checkedTools(Array.isArray(entry.tools) ? entry.tools : []), ...sent };
}
