/**
 * Tool-call deltas arrive in pieces keyed by `index`: the id and name usually first, the JSON arguments
 * split anywhere (even mid-string). Calls are reported only once the stream says they are complete, so a
 * call is never flushed with half its arguments. Some gateways send `index` only on a call's first fragment:
 * a fragment without it belongs to the call that was last added to, unless it brings a new id
 * (docs/issues/013).
 */
import { createHash, randomUUID } from 'crypto';

export interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

export interface CompletedToolCall {
  callId: string;
  name: string;
  input: object;
}

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

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

export class ToolCallAccumulator {
  private readonly calls = new Map<number, PartialCall>();

  /**
   * `answerNonce`: unique per answer, so a call the stream sent without an id gets one no other call has (a
   * positional `call_0` would repeat every turn and pair results with the wrong call). VS Code keeps the id in
   * the history and sends it back as is, so it stays the same on every later turn.
   */
  constructor(private readonly answerNonce: string = randomUUID()) {}

  /** The index of the call the previous fragment went to. */
  private current: number | undefined;

  add(delta: ToolCallDelta): void {
    const index = delta.index ?? this.indexWithout(delta.id);
    this.current = index;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.args += delta.function.arguments;
  }

  /** Where a fragment without `index` goes: the call with its id, else a new call for a new id, else the current call. */
  private indexWithout(id: string | undefined): number {
    if (id) {
      for (const [index, call] of this.calls) if (call.id === id) return index;
    }
    const current = this.current === undefined ? undefined : this.calls.get(this.current);
    if (current && !(id && current.id)) return this.current as number;
    return this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
  }

  get hasCalls(): boolean {
    return this.calls.size > 0;
  }

  /** Completes every call in index order; throws ToolCallArgumentsError on arguments that are not JSON. */
  drain(): CompletedToolCall[] {
    const ordered = [...this.calls.entries()].sort((a, b) => a[0] - b[0]);
    this.calls.clear();
    this.current = undefined;
    return ordered.map(([index, call]) => ({
      callId: call.id || synthesizedId(this.answerNonce, index, call),
      name: call.name,
      input: parseArguments(call),
    }));
  }
}

function parseArguments(call: PartialCall): object {
  const raw = call.args.trim();
  if (raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ToolCallArgumentsError(call.name, call.args);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ToolCallArgumentsError(call.name, call.args);
  }
  return parsed;
}

function synthesizedId(nonce: string, index: number, call: PartialCall): string {
  return `call_${createHash('sha256').update(JSON.stringify([nonce, index, call.name, call.args])).digest('hex').slice(0, 24)}`;
}
