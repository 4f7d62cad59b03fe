/**
 * The Chat Completions stream → neutral events (core/answer/wireEvent.ts). Translation only: a payload is a chunk
 * (checked by chatChunk.ts), `[DONE]`, an error the gateway sent inside the stream, or junk (docs/reliability.md:
 * malformed payloads are skipped and logged; a chunk with a field of the wrong type keeps its good fields and is
 * logged the same way); `reasoning_content` / `reasoning` → thinking, a `<think>` block opening the text → thinking
 * (ThinkTagSplitter), `refusal` → refusal, tool-call fragments → pieces keyed by the call they belong to
 * (ChatCallKeys), a finish reason closes every open call, usage frames are passed on raw (merged field by field, read
 * by chatChunk.ts readUsage). A chunk with nothing in it (`choices: []`, an empty delta, OpenCode's cost frame) is a
 * keep-alive. A 200 JSON completion instead of a stream is read as one chunk and `[DONE]` (chunkOfCompletion).
 */
import { AnswerReader } from '../../answer/answerReader';
import type { WireEvent, WireReader } from '../../answer/wireEvent';
import { checkChunk, readUsage, type Chunk, type ChunkDelta, type ToolCallDelta } from './chatChunk';
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
    if (chunk.usage) events.push({ kind: 'usage', raw: chunk.usage, read: readUsage, merge: 'fields' });
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

export type StreamFrame =
  /** `raw` is set when fields of the wrong type were dropped (`problems` of them). */
  | { kind: 'chunk'; chunk: Chunk; problems: number; raw?: string }
  | { kind: 'done' }
  | { kind: 'malformed'; raw: string }
  | { kind: 'error'; error: Record<string, unknown> };

export function frameOf(data: string): StreamFrame {
  if (data.trim().startsWith('[DONE]')) return { kind: 'done' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return { kind: 'malformed', raw: data };
  }
  return frameOfJson(parsed, data);
}

/** A parsed payload (or a whole JSON body, see chatReader.ts) → its frame. */
export function frameOfJson(parsed: unknown, raw: string): StreamFrame {
  if (!isRecord(parsed)) return { kind: 'malformed', raw };
  const error = parsed.error;
  if (error) return { kind: 'error', error: isRecord(error) ? error : { message: String(error) } };
  const { chunk, problems } = checkChunk(parsed);
  return problems > 0 ? { kind: 'chunk', chunk, problems, raw } : { kind: 'chunk', chunk, problems };
}

/*
 * A 200 answer that is not an event stream: some gateways answer a streaming request with one JSON body, a whole
 * chat completion. This turns it into the chunk a stream would have carried (the message as its delta), so the
 * chat reader reads it like any stream (docs/issues/011). `{"error": …}` bodies are errors on every route
 * (core/answer/answerReader.ts).
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

/*
 * Which call a chat tool-call fragment belongs to. Fragments are keyed by `index`; some gateways send it only on
 * a call's first fragment: a fragment without it belongs to the call with its id, else to the call last added to,
 * unless it brings a new id (then it opens a new call) (docs/issues/013).
 */
export class ChatCallKeys {
  /** Open calls: index → the id they came with ('' when none yet). */
  private readonly open = new Map<number, string>();
  private current: number | undefined;
  /** Indexes are reused after a finish reason closes the calls; the key stays unique per answer. */
  private round = 0;

  keyOf(fragment: ToolCallDelta): string {
    const index = fragment.index ?? this.indexWithout(fragment.id);
    this.current = index;
    if (!this.open.get(index)) this.open.set(index, fragment.id ?? '');
    return this.key(index);
  }

  /** A finish reason (or the stream's end): every open call is complete, in index order. */
  closeAll(): WireEvent[] {
    const keys = [...this.open.keys()].sort((a, b) => a - b).map((index): WireEvent => ({ kind: 'toolEnd', key: this.key(index) }));
    this.open.clear();
    this.current = undefined;
    if (keys.length > 0) this.round++;
    return keys;
  }

  private key(index: number): string {
    return `${this.round}:${index}`;
  }

  private indexWithout(id: string | undefined): number {
    if (id) for (const [index, openId] of this.open) if (openId === id) return index;
    const current = this.current === undefined ? undefined : this.open.get(this.current);
    if (current !== undefined && !(id && current)) return this.current as number;
    return this.open.size === 0 ? 0 : Math.max(...this.open.keys()) + 1;
  }
}

/*
 * Some models put their reasoning inline as `<think>…</think>` in the text stream. Only a think block that
 * opens the answer (after nothing but whitespace) is reasoning: this splitter routes that span to thinking
 * and everything else to text, across chunk boundaries (a tag may arrive split as `<thi` + `nk>`). A `<think>`
 * later in the answer (code that mentions the tag, an explanation of it) is text (docs/issues/010). Text
 * outside the block passes through byte for byte.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitPiece {
  kind: 'text' | 'thinking';
  text: string;
}

/** start: only whitespace so far, a block may still open; thinking: inside the opening block; text: the rest. */
type Phase = 'start' | 'thinking' | 'text';

export class ThinkTagSplitter {
  private phase: Phase = 'start';
  private held = '';

  push(chunk: string): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    let input = this.held + chunk;
    this.held = '';
    if (this.phase === 'start') input = this.leaveStart(input, pieces);
    if (this.phase === 'thinking') input = this.readThinking(input, pieces);
    if (this.phase === 'text') emit(pieces, 'text', input);
    return pieces;
  }

  /** Whatever was held back waiting for a tag that never completed. */
  flush(): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    emit(pieces, this.phase === 'thinking' ? 'thinking' : 'text', this.held);
    this.held = '';
    return pieces;
  }

  /** Decides whether the answer opens with a think block; holds the input while it cannot tell yet. */
  private leaveStart(input: string, pieces: SplitPiece[]): string {
    const body = input.trimStart();
    const whitespace = input.slice(0, input.length - body.length);
    if (body.startsWith(OPEN)) {
      emit(pieces, 'text', whitespace);
      this.phase = 'thinking';
      return body.slice(OPEN.length);
    }
    if (OPEN.startsWith(body)) {
      this.held = input; // only whitespace, or the beginning of `<think>`
      return '';
    }
    this.phase = 'text';
    return input;
  }

  private readThinking(input: string, pieces: SplitPiece[]): string {
    const at = input.indexOf(CLOSE);
    if (at >= 0) {
      emit(pieces, 'thinking', input.slice(0, at));
      this.phase = 'text';
      return input.slice(at + CLOSE.length);
    }
    const keep = partialTagSuffix(input, CLOSE);
    emit(pieces, 'thinking', input.slice(0, input.length - keep));
    this.held = input.slice(input.length - keep);
    return '';
  }
}

function emit(pieces: SplitPiece[], kind: SplitPiece['kind'], text: string): void {
  if (text) pieces.push({ kind, text });
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
