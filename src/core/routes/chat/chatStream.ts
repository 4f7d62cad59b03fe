/**
 * The Chat Completions stream → neutral events (core/answer/wireEvent.ts). Translation only: a payload is a chunk
 * (checked by chunkShape.ts), `[DONE]` or junk; `reasoning_content` / `reasoning` → thinking, a `<think>` block
 * opening the text → thinking (thinkTagSplitter.ts), `refusal` → refusal, tool-call fragments → pieces keyed by
 * the call they belong to (chatCallKeys.ts), a finish reason closes every open call, usage frames are passed on
 * raw (merged field by field). A chunk with nothing in it (`choices: []`, an empty delta, OpenCode's cost frame) is
 * a keep-alive. A 200 JSON completion instead of a stream is read as one chunk and `[DONE]` (completionBody.ts).
 */
import { AnswerReader } from '../../answer/answerReader';
import type { WireEvent, WireReader } from '../../answer/wireEvent';
import type { Chunk, ChunkDelta } from '../../stream/chunkShape';
import { chunkOfCompletion } from '../../stream/completionBody';
import { frameOf, frameOfJson } from '../../stream/streamFrame';
import { ThinkTagSplitter } from '../../stream/thinkTagSplitter';
import { ChatCallKeys } from './chatCallKeys';
import { isRecord } from '../../util/jsonFields';

export class ChatWire implements WireReader {
  private readonly thinkTags = new ThinkTagSplitter();
  private readonly keys = new ChatCallKeys();

  read(data: unknown): WireEvent[] {
    const frame = isRecord(data) ? frameOfJson(data, JSON.stringify(data)) : frameOf(String(data));
    if (frame.kind === 'done') return [{ kind: 'end' }];
    if (frame.kind === 'malformed') return [{ kind: 'malformed', raw: frame.raw }];
    if (frame.kind === 'error') return [{ kind: 'error', error: frame.error }];
    const events = this.chunk(frame.chunk);
    if (frame.raw !== undefined) events.push({ kind: 'malformed', raw: frame.raw, wrongShape: true });
    return events.length > 0 ? events : [{ kind: 'keepAlive' }];
  }

  /** A 200 JSON body: a whole completion, read as one chunk and the end marker. */
  body(parsed: Record<string, unknown>): WireEvent[] {
    return [...this.read(chunkOfCompletion(parsed)), { kind: 'end' }];
  }

  /** The stream ended: text held back for a possible tag, and calls never closed by a finish reason (whole or not, the assembler judges). */
  end(): WireEvent[] {
    return [...this.heldText(), ...this.keys.closeAll()];
  }

  abandon(): WireEvent[] {
    return this.heldText();
  }

  private chunk(chunk: Chunk): WireEvent[] {
    const events: WireEvent[] = [];
    for (const choice of chunk.choices) {
      if (choice.delta) this.delta(choice.delta, events);
      if (choice.finish_reason) events.push(...this.keys.closeAll(), { kind: 'finish', reason: choice.finish_reason, wire: choice.finish_reason });
    }
    if (chunk.usage) events.push({ kind: 'usage', raw: chunk.usage, merge: 'fields' });
    return events;
  }

  private delta(delta: ChunkDelta, events: WireEvent[]): void {
    if (delta.reasoning) events.push({ kind: 'thinking', text: delta.reasoning });
    if (delta.content) for (const piece of this.thinkTags.push(delta.content)) events.push({ kind: piece.kind, text: piece.text });
    if (delta.refusal) events.push({ kind: 'refusal', text: delta.refusal });
    for (const call of delta.tool_calls ?? []) {
      events.push({ kind: 'toolPart', key: this.keys.keyOf(call), id: call.id, name: call.function?.name, args: call.function?.arguments });
    }
  }

  private heldText(): WireEvent[] {
    return this.thinkTags.flush().map((piece): WireEvent => ({ kind: piece.kind, text: piece.text }));
  }
}

export const newChatReader = (seed?: string): AnswerReader => new AnswerReader('chat', new ChatWire(), seed);
