/**
 * The one progress rule, for every route (issue 29 item 3): only an event that adds something to the answer
 * restarts the idle timeout. Text, thinking or a refusal with at least one character, a piece of a tool call that
 * carries a name, an id or argument characters, a call's end, a native item, a finish reason, the end marker and
 * an error do. An empty delta, a usage-only frame, a ping (keep-alive), OpenCode's cost frame and a skipped payload
 * do not: a stream that sends only those times out, whichever wire it speaks.
 */
import type { WireEvent } from './wireEvent';

export function addsSomething(event: WireEvent): boolean {
  switch (event.kind) {
    case 'text':
    case 'thinking':
    case 'refusal':
      return event.text.length > 0;
    case 'toolPart':
      return !!(event.args || event.name || event.id);
    case 'toolEnd':
    case 'native':
    case 'finish':
    case 'end':
    case 'error':
      return true;
    case 'usage':
    case 'cost':
    case 'keepAlive':
    case 'malformed':
      return false;
  }
}
