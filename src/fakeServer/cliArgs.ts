/** Command-line flags of the fake server, parsed into FakeServerOptions. Pure, so it is testable. */
import type { FakeModel, FakeServerOptions } from './types';
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

function nonNegativeInteger(flag: string, value: string | undefined): number {
  const parsed = Number(value);
  if (value === undefined || !Number.isInteger(parsed) || parsed < 0) throw new Error(`${flag} expects a non-negative integer`);
  return parsed;
}

function requireValue(flag: string, value: string | undefined): string {
  if (value === undefined || value.startsWith('--')) throw new Error(`${flag} expects a value`);
  return value;
}

/** Throws an Error whose message is fit to print next to CLI_USAGE. */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  const options: FakeServerOptions = {};
  const models: FakeModel[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const next = (): string => requireValue(flag, argv[++i]);
    switch (flag) {
      case '--help':
      case '-h':
        help = true;
        break;
      case '--port':
        options.port = nonNegativeInteger(flag, argv[++i]);
        break;
      case '--host':
        options.host = next();
        break;
      case '--usage-shape': {
        const shape = next();
        if (!isUsageShapeName(shape)) throw new Error(`--usage-shape expects one of ${USAGE_SHAPE_NAMES.join(', ')}`);
        options.usageShape = shape;
        break;
      }
      case '--reply-tokens':
        options.replyTokens = nonNegativeInteger(flag, argv[++i]);
        break;
      case '--reply-delay-ms':
        options.replyDelayMs = nonNegativeInteger(flag, argv[++i]);
        break;
      case '--require-key':
        options.requireKey = next();
        break;
      case '--require-session':
        options.requireSession = true;
        break;
      case '--model':
        models.push(parseModelSpec(next()));
        while (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) models.push(parseModelSpec(argv[++i]));
        break;
      default:
        throw new Error(`Unknown option ${flag}`);
    }
  }
  if (models.length > 0) options.models = models;
  return { help, options };
}
