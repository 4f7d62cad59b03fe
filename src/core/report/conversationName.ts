/**
 * What the report's list and tab call a conversation: the user's first words. VS Code puts more than the user's
 * words into a user message — its agent wraps them in `<userRequest>` beside `<attachment …>`, `<context>`,
 * `<environment_info>` or `<reminderInstructions>` blocks — so tagged blocks are skipped and a `<userRequest>`
 * wins. Linear in the text (no backtracking regex): a 2 MB attachment costs one scan.
 */
import type { WireMessage } from '../wire/wireTypes';

export const MAX_NAME_CHARS = 40;
/** Text scanned per message at most: the user's words come early or not at all. */
const MAX_SCAN_CHARS = 1_000_000;

const short = (line: string): string => (line.length > MAX_NAME_CHARS ? `${line.slice(0, MAX_NAME_CHARS - 1)}…` : line);
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The user's own words in one user text: inside `<userRequest>`, else what is outside any tagged block. */
export function userWords(text: string): string {
  const scanned = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const open = scanned.indexOf('<userRequest>');
  if (open >= 0) {
    const close = scanned.indexOf('</userRequest>', open);
    const inner = oneLine(scanned.slice(open + '<userRequest>'.length, close < 0 ? undefined : close));
    if (inner) return inner;
  }
  let out = '';
  let at = 0;
  while (at < scanned.length && out.length < MAX_NAME_CHARS * 4) {
    const lt = scanned.indexOf('<', at);
    if (lt < 0) {
      out += scanned.slice(at);
      break;
    }
    out += scanned.slice(at, lt);
    const name = /^<([A-Za-z_][\w.-]*)/.exec(scanned.slice(lt, lt + 64))?.[1];
    if (!name) {
      out += '<';
      at = lt + 1;
      continue;
    }
    const tagEnd = scanned.indexOf('>', lt);
    if (tagEnd < 0) break;
    if (scanned[tagEnd - 1] === '/') {
      at = tagEnd + 1;
      continue;
    }
    const close = scanned.indexOf(`</${name}>`, tagEnd);
    // An unclosed tag: everything after it is the block's (an attachment cut short), not the user's words.
    if (close < 0) break;
    at = close + name.length + 3;
  }
  return oneLine(out);
}

function textsOf(message: WireMessage): string[] {
  if (message.role !== 'user') return [];
  if (typeof message.content === 'string') return [message.content];
  return (message.content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

/** The first user words of a history (undefined: none, e.g. only attachments so far). Never the system's text. */
export function firstUserWords(messages: readonly WireMessage[]): string | undefined {
  for (const message of messages) {
    for (const text of textsOf(message)) {
      const words = userWords(text);
      if (words) return short(words);
    }
  }
  return undefined;
}
