/**
 * The neutral vocabulary every route's reader translates its wire events into (docs/architecture.md "Readers
 * translate; one assembler decides"). A reader only says what arrived; the assembler (answerReader.ts) applies every
 * rule of an answer to these, the same on every route. A reader never parses tool arguments, never reads usage
 * itself (it names its route's usage conversion, run on the merged frames), never decides whether an answer is complete.
 */
import type { UsageRead } from '../usage/usage';

export type WireEvent =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  /** The model's words declining to answer (Chat `delta.refusal`, Responses `refusal.delta`): shown as text. */
  | { kind: 'refusal'; text: string }
  /**
   * A piece of a tool call, keyed by what identifies it on the wire (chat's index, Responses' item id, Messages'
   * block index). Any field may be missing; `args` is appended; a `name` equal to the name so far is not.
   */
  | { kind: 'toolPart'; key: string; id?: string; name?: string; args?: string }
  /** The wire says the call is complete; `args`, when present and non-empty, are its whole arguments. */
  | { kind: 'toolEnd'; key: string; id?: string; name?: string; args?: string }
  /**
   * A raw usage object as the wire sent it; `read`: the route's usage conversion (its folder's), run on the merged
   * record; `merge` says whether it updates the earlier fields or replaces them.
   */
  | { kind: 'usage'; raw: Record<string, unknown>; read: UsageRead; merge: 'fields' | 'replace' }
  /** `reason` normalized (stop | tool_calls | length | content_filter | …); `wire` as the wire said it. */
  | { kind: 'finish'; reason: string; wire: string }
  | { kind: 'error'; error: Record<string, unknown> }
  /** A frame that carries nothing (Anthropic `ping`, an empty chat chunk): never progress for the idle timeout. */
  | { kind: 'keepAlive' }
  /** An item to pass back verbatim later; `call`: it belongs right before that call (by key) in the layout. */
  | { kind: 'native'; item: Record<string, unknown>; call?: string }
  /** OpenCode's cost of this request, in US dollars. */
  | { kind: 'cost'; usd: number }
  /** The answer's end marker ([DONE], response.completed/incomplete, message_stop). */
  | { kind: 'end' }
  /** A payload that is not JSON (`wrongShape`: JSON with fields of the wrong type, dropped); `raw` for the log. */
  | { kind: 'malformed'; raw: string; wrongShape?: boolean };

/** One route's translation of its stream: payload by payload, then the end (or a break) of the stream. */
export interface WireReader {
  /** One SSE payload (raw text or parsed JSON) and its `event:` name, when it had one. */
  read(data: unknown, eventName?: string): WireEvent[];
  /** A 200 JSON body instead of a stream, when the format has one the route can read (chat's whole completion). */
  body?(parsed: Record<string, unknown>): WireEvent[];
  /** The stream ended: whatever the reader held back. */
  end(): WireEvent[];
  /** The stream broke: only text held back (a call still open is left open, so the assembler drops it). */
  abandon(): WireEvent[];
}
