/**
 * Keeps each request of a conversation as it was, cheaply: VS Code hands over fresh objects every turn, so a
 * message already seen (same fingerprint, the SizeMemo's key) is replaced by the object kept the first time.
 * Each request then holds only references: memory grows with what is new, not with the history re-sent. A
 * history rewritten between turns (an earlier turn re-sent differently) keeps its new messages, so the
 * replays see what each request really sent, not a slice of the latest history.
 */
import { fingerprint } from '../trim/messageSize';
import type { WireMessage, WireTool } from '../wire/wireTypes';

export class MessageInterner {
  private readonly messages = new Map<string, WireMessage>();
  private tools: { key: string; tools: readonly WireTool[] } = { key: '[]', tools: [] };

  history(input: readonly WireMessage[]): readonly WireMessage[] {
    return input.map((message) => {
      const key = fingerprint(message);
      const known = this.messages.get(key);
      if (known) return known;
      this.messages.set(key, message);
      return message;
    });
  }

  toolsOf(tools: readonly WireTool[]): readonly WireTool[] {
    if (tools === this.tools.tools) return tools;
    const key = JSON.stringify(tools);
    if (key !== this.tools.key) this.tools = { key, tools };
    return this.tools.tools;
  }

  get size(): number {
    return this.messages.size;
  }
}
