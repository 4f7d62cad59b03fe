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
