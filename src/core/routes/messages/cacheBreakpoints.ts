/**
 * Where the Messages body carries `cache_control` (at most 4 — Anthropic rejects a fifth):
 *   1. the last tool definition      (tools change rarely: their prefix is read on every request)
 *   2. the last system block         (same for the system prompt)
 *   3. the last block of the newest message: this request writes everything it sends
 *   4. the last block of the last user turn before the newest assistant turn: that is where the previous
 *      request put breakpoint 3, so this request reads exactly what the previous one wrote, however many
 *      blocks (parallel tool results) were appended since (Anthropic only looks ~20 blocks back by itself).
 * Both message breakpoints are functions of the history alone, so inside the already-cached part a marker only
 * ever disappears (the old breakpoint 4), never appears on a new block. Thinking blocks cannot carry one.
 * Every marker is the same `cache_control` (the lifetime the settings ask for, routes/cacheLifetime.ts): Anthropic
 * wants longer lifetimes before shorter ones, and one marker for all keeps that true.
 */
import type { AnthropicMessage, Block } from './messagesBody';

export const MAX_BREAKPOINTS = 4;
const EPHEMERAL: Readonly<Record<string, string>> = { type: 'ephemeral' };

/** `marker`: the `cache_control` every breakpoint gets (default: the 5-minute lifetime). */
export function placeBreakpoints(tools: Block[], system: Block[], messages: AnthropicMessage[], marker = EPHEMERAL): void {
  const mark = (block: Block | undefined): void => {
    if (block) block.cache_control = { ...marker };
  };
  mark(tools[tools.length - 1]);
  mark(system[system.length - 1]);
  const newest = messages.length - 1;
  if (newest < 0) return;
  mark(lastCacheable(messages[newest]));
  const previous = previousRequestEnd(messages);
  if (previous !== undefined && previous !== newest) mark(lastCacheable(messages[previous]));
}

/** Index of the last user turn before the newest assistant turn (undefined when there is none). */
export function previousRequestEnd(messages: readonly AnthropicMessage[]): number | undefined {
  let i = messages.length - 1;
  while (i >= 0 && messages[i].role !== 'assistant') i--;
  for (i--; i >= 0; i--) if (messages[i].role === 'user') return i;
  return undefined;
}

function lastCacheable(message: AnthropicMessage): Block | undefined {
  for (let i = message.content.length - 1; i >= 0; i--) {
    const type = message.content[i].type;
    if (type !== 'thinking' && type !== 'redacted_thinking') {
      // A fresh copy: blocks may be shared (remembered layouts), and the marker is this request's alone.
      message.content[i] = { ...message.content[i] };
      return message.content[i];
    }
  }
  return undefined;
}
