/** Command-line flags of the fake server, parsed into FakeServerOptions. Pure, so it is testable. */
import { parseArgs } from 'node:util';
import type { FakeServerOptions } from './types';
import { parseModelSpec } from './models';
import { isUsageShapeName, USAGE_SHAPE_NAMES } from './usageShapes';

export const CLI_USAGE = `Usage: node out/fakeServer/cli.js [options]
  --port N                    port to listen on (default 0 = random)
  --host HOST                 127.0.0.1 (default), ::1 or localhost; loopback only
  --usage-shape SHAPE         ${USAGE_SHAPE_NAMES.join(' | ')} (default openai)
  --reply-tokens N            length of the default reply in tokens (default 40)
  --model id:window:maxOutput[:api] replaces the default models; repeatable, or several after one flag
  --reply-delay-ms N          pause before each chat reply starts
  --require-key KEY           answer 401 unless "Authorization: Bearer KEY"
  --require-session           answer 400 MissingSessionID without x-opencode-session
Prints FAKE_OPENCODE_URL=http://HOST:PORT/v1 once listening; logs one line per request to stderr.`;

export interface CliRequest {
  help: boolean;
  options: FakeServerOptions;
}

function nonNegativeInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed)) throw new Error(`${flag} expects a non-negative integer`);
  return parsed;
}

const STRING = { type: 'string' } as const;
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  'require-session': { type: 'boolean' },
  model: { type: 'string', multiple: true },
  port: STRING, host: STRING, 'usage-shape': STRING, 'reply-tokens': STRING, 'reply-delay-ms': STRING, 'require-key': STRING,
} as const;

/** util.parseArgs with its errors reworded for CLI_USAGE, and several model specs allowed after one --model. */
function parse(argv: readonly string[]) {
  try {
    const { values, tokens } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
    return { values, modelSpecs: modelSpecsInOrder(tokens) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (!code?.startsWith('ERR_PARSE_ARGS_')) throw error;
    const name = /'(-[^' ]+)/.exec((error as Error).message)?.[1] ?? '';
    throw new Error(code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `Unknown option ${name}` : `${name} expects a value`);
  }
}

/** Model specs in the order given, whether each followed its own --model or shared one. */
function modelSpecsInOrder(tokens: readonly { kind: string; name?: string; value?: string }[]): string[] {
  const specs: string[] = [];
  let inModel = false;
  for (const token of tokens) {
    if (token.kind === 'option') {
      inModel = token.name === 'model';
      if (inModel && token.value !== undefined) specs.push(token.value);
    } else if (token.kind === 'positional') {
      if (!inModel) throw new Error(`Unexpected argument ${token.value}`);
      specs.push(token.value as string);
    }
  }
  return specs;
}

/** Throws an Error whose message is fit to print next to CLI_USAGE. */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  const { values, modelSpecs } = parse(argv);
  const shape = values['usage-shape'];
  if (shape !== undefined && !isUsageShapeName(shape)) throw new Error(`--usage-shape expects one of ${USAGE_SHAPE_NAMES.join(', ')}`);
  const options: FakeServerOptions = {
    port: nonNegativeInteger('--port', values.port),
    host: values.host,
    usageShape: shape,
    replyTokens: nonNegativeInteger('--reply-tokens', values['reply-tokens']),
    replyDelayMs: nonNegativeInteger('--reply-delay-ms', values['reply-delay-ms']),
    requireKey: values['require-key'],
    requireSession: values['require-session'],
    models: modelSpecs.length > 0 ? modelSpecs.map(parseModelSpec) : undefined,
  };
  for (const key of Object.keys(options) as (keyof FakeServerOptions)[]) if (options[key] === undefined) delete options[key];
  return { help: values.help === true, options };
}
