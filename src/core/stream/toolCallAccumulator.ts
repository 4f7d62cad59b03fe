/**
 * Tool-call deltas arrive in pieces keyed by `index`: the id and name usually first, the JSON arguments
 * split anywhere (even mid-string). Calls are reported only once the stream says they are complete, so a
 * call is never flushed with half its arguments.
 */

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

  add(delta: ToolCallDelta): void {
    const index = delta.index ?? this.calls.size;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.args += delta.function.arguments;
  }

  get hasCalls(): boolean {
    return this.calls.size > 0;
  }

  /** Completes every call in index order; throws ToolCallArgumentsError on arguments that are not JSON. */
  drain(): CompletedToolCall[] {
    const ordered = [...this.calls.entries()].sort((a, b) => a[0] - b[0]);
    this.calls.clear();
    return ordered.map(([index, call]) => ({
      callId: call.id || `call_${index}`,
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
