/**
 * Tool calls of one answer, from the readers' neutral pieces (wireEvent.ts), judged one by one:
 * - one delivery per wire call (its key): a call the wire repeats (Responses' `response.completed` output) is
 *   not delivered again;
 * - arguments: the pieces appended; a whole-arguments value the wire sends at the end replaces them only when it is
 *   non-empty (an empty `arguments.done` never erases arguments that arrived);
 * - a name sent whole on every fragment is not concatenated (`read_file` + `read_file` stays `read_file`);
 * - arguments that are not a JSON object: that call alone is dropped (ToolCallArgumentsError kept for the log);
 * - ids non-empty and unique within the answer: a missing or repeated id is replaced by one derived from the
 *   answer's seed, the call's position, name and arguments (deterministic, so the same stream gives the same id;
 *   VS Code keeps it in the history, so the next request's prefix keeps its bytes).
 */
import { hashId } from '../util/hashId';

interface OpenCall {
  id: string;
  name: string;
  args: string;
}

export interface DeliveredCall {
  callId: string;
  name: string;
  input: object;
}

/** A call that is not delivered: its arguments were not JSON, or the stream ended inside it. */
export interface DroppedCall {
  name: string;
  why: 'not-json' | 'unfinished';
  error?: ToolCallArgumentsError;
}

export type CallVerdict = { delivered: DeliveredCall } | { dropped: DroppedCall } | undefined;

export class ToolCalls {
  private readonly open = new Map<string, OpenCall>();
  private readonly judged = new Set<string>();
  private readonly ids = new Set<string>();
  private position = 0;

  constructor(private readonly seed: string) {}

  part(key: string, piece: { id?: string; name?: string; args?: string }): void {
    if (this.judged.has(key)) return;
    const call = this.open.get(key) ?? { id: '', name: '', args: '' };
    this.open.set(key, call);
    merge(call, piece);
    if (piece.args) call.args += piece.args;
  }

  /** The wire closed the call: delivered, dropped, or nothing (a repeat of a call already judged). */
  end(key: string, piece: { id?: string; name?: string; args?: string }): CallVerdict {
    if (this.judged.has(key)) return undefined;
    const call = this.open.get(key) ?? { id: '', name: '', args: '' };
    this.open.delete(key);
    this.judged.add(key);
    merge(call, piece);
    if (piece.args) call.args = piece.args;
    return this.judge(call);
  }

  /** Calls still open when the stream ended or broke: their arguments never finished. */
  unfinished(): DroppedCall[] {
    const dropped = [...this.open.values()].map((call): DroppedCall => ({ name: call.name, why: 'unfinished' }));
    for (const key of this.open.keys()) this.judged.add(key);
    this.open.clear();
    return dropped;
  }

  private judge(call: OpenCall): CallVerdict {
    let input: object;
    try {
      input = parseToolInput(call.name, call.args);
    } catch (error) {
      return { dropped: { name: call.name, why: 'not-json', error: error as ToolCallArgumentsError } };
    }
    const position = this.position++;
    const callId = call.id && !this.ids.has(call.id) ? call.id : synthesizedId(this.seed, position, call);
    this.ids.add(callId);
    return { delivered: { callId, name: call.name, input } };
  }
}

function merge(call: OpenCall, piece: { id?: string; name?: string }): void {
  if (piece.id && !call.id) call.id = piece.id;
  // A fragment equal to the whole name so far is the name repeated, not a second half.
  if (piece.name && piece.name !== call.name) call.name += piece.name;
}

function synthesizedId(seed: string, position: number, call: OpenCall): string {
  return `call_${hashId(JSON.stringify([seed, position, call.name, call.args]), 24)}`;
}

/** A tool call whose arguments are not a JSON object: never run (docs/reliability.md). */
export class ToolCallArgumentsError extends Error {
  constructor(
    readonly toolName: string,
    readonly rawArguments: string,
  ) {
    super(
      `The model called tool "${toolName}" with arguments that are not valid JSON ` +
        `(${rawArguments.length} characters, starting ${JSON.stringify(rawArguments.slice(0, 80))}). ` +
        'Try again, or pick another model if this repeats.',
    );
    this.name = 'ToolCallArgumentsError';
  }
}

/** Complete JSON object arguments, or ToolCallArgumentsError (empty arguments mean "no parameters"). */
export function parseToolInput(name: string, raw: string): object {
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ToolCallArgumentsError(name, raw);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ToolCallArgumentsError(name, raw);
  return parsed;
}
