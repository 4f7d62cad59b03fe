/** Chat tool-call fragments fed one by one through the chat route's reader, then closed by a finish reason. */
import { routeById } from '../../core/routes/registry/registry';
import type { ToolCallDelta } from '../../core/routes/chat/chatChunk';

export class ChatCallFeed {
  private readonly reader;

  constructor(seed?: string) {
    this.reader = routeById('chat').newReader(seed);
  }

  add(delta: ToolCallDelta): void {
    this.reader.push({ choices: [{ delta: { tool_calls: [delta] } }] });
  }

  /** The calls delivered once a finish reason closes them (throws when the only content was broken calls). */
  drain(): { callId: string; name: string; input: object }[] {
    const events = [...this.reader.push({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }).events, ...this.reader.finish()];
    return events.flatMap((e) => (e.kind === 'toolCall' ? [{ callId: e.callId, name: e.name, input: e.input }] : []));
  }
}
