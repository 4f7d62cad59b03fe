/**
 * The replay CLI's arguments, read with util.parseArgs. A number flag must be a plain non-negative number
 * (`abc`, `-5`, `Infinity`, `NaN`, `1e999` are refused, with the flag named); range limits then apply
 * exactly as the extension applies them to settings, with a warning.
 */
import { parseArgs } from 'util';
import { isRouteId, ROUTE_IDS, type RouteId } from '../core/routeId';
import type { ModelLimits } from '../core/types';

export const USAGE =
  'usage: npm run --silent replay -- FILE [--context-window N] [--max-output N] [--reserved N] [--headroom-ratio X] [--headroom-min N] [--headroom-max N] [--cut-step N] [--max-input N] [--api chat|responses|messages|gemini] [--json]';

/** Flag → the setting it stands for (undefined: a model limit, not a setting). */
const NUMBER_FLAGS = {
  'context-window': { setting: undefined, integer: true },
  'max-output': { setting: undefined, integer: true },
  reserved: { setting: 'reservedOutputTokens', integer: true },
  'max-input': { setting: 'maxInputTokens', integer: true },
  'headroom-ratio': { setting: 'historyTrim.headroomRatio', integer: false },
  'headroom-min': { setting: 'historyTrim.headroomMinTokens', integer: true },
  'headroom-max': { setting: 'historyTrim.headroomMaxTokens', integer: true },
  'cut-step': { setting: 'historyTrim.cutStepTokens', integer: true },
} as const;
type NumberFlag = keyof typeof NUMBER_FLAGS;

export interface ReplayArgs {
  file: string;
  json: boolean;
  /** Setting values as the settings resolver reads them. */
  settingValues: Record<string, number>;
  contextWindow?: number;
  maxOutputTokens?: ModelLimits['maxOutputTokens'];
  /** The route whose provider cache is modelled (the cut is the same on every route). */
  /** Undefined: each request's recorded route, else chat. */
  api?: RouteId;
}

export type ParsedArgs = { help: true } | { help: false; args: ReplayArgs };

/** A bad command line: the message says which flag and why; the CLI exits 2. */
export class UsageError extends Error {}

export function parseReplayArgs(argv: string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...Object.fromEntries(Object.keys(NUMBER_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
        json: { type: 'boolean', default: false },
        api: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'no replay file given' : `expected one replay file, got ${positionals.length}`);
  const settingValues: Record<string, number> = {};
  if (values.api !== undefined && !isRouteId(values.api)) throw new UsageError(`--api ${JSON.stringify(values.api)} is not one of ${ROUTE_IDS.join(', ')}`);
  const args: ReplayArgs = { file: positionals[0], json: values.json === true, settingValues, api: values.api };
  for (const flag of Object.keys(NUMBER_FLAGS) as NumberFlag[]) {
    const raw = (values as Record<string, unknown>)[flag];
    if (typeof raw !== 'string') continue;
    const value = flagNumber(flag, raw, NUMBER_FLAGS[flag].integer);
    const setting = NUMBER_FLAGS[flag].setting;
    if (setting) settingValues[setting] = value;
    else if (flag === 'context-window') args.contextWindow = value;
    else args.maxOutputTokens = value;
  }
  return { help: false, args };
}

/** A plain decimal number (digits, one optional fraction), never negative, NaN or infinite. */
export function flagNumber(flag: string, raw: string, integer: boolean): number {
  const pattern = integer ? /^\d+$/ : /^\d+(\.\d+)?$|^\.\d+$/;
  const value = Number(raw);
  if (!pattern.test(raw.trim()) || !Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) {
    throw new UsageError(`--${flag} ${JSON.stringify(raw)} is not ${integer ? 'a whole number of tokens (0 or more)' : 'a number (0 or more)'}`);
  }
  return value;
}
