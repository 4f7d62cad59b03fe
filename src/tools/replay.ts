/**
 * npm run --silent replay -- FILE [--context-window N] [--max-output N] [--reserved N]
 *   [--headroom-ratio X] [--headroom-min N] [--headroom-max N] [--cut-step N] [--max-input N] [--json]
 *
 * Replays a recorded session (opencode.recordRequests writes them) through the extension's trim path.
 * Without --json it prints the lines the extension would log; with --json one object per request and a
 * summary. Settings are validated exactly as the extension validates them (warnings on stderr).
 */
import * as fs from 'fs';
import { parseArgs } from 'util';
import { resolveSettings } from '../core/config/settings';
import { parseReplayLines } from '../replay/replayFile';
import { replaySession } from '../replay/replaySession';

const USAGE = 'usage: npm run --silent replay -- FILE [--context-window N] [--max-output N] [--reserved N] [--headroom-ratio X] [--headroom-min N] [--headroom-max N] [--cut-step N] [--max-input N] [--json]';

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'context-window': { type: 'string' },
        'max-output': { type: 'string' },
        reserved: { type: 'string' },
        'headroom-ratio': { type: 'string' },
        'headroom-min': { type: 'string' },
        'headroom-max': { type: 'string' },
        'cut-step': { type: 'string' },
        'max-input': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const num = (name: string): number | undefined => {
    const raw = (values as Record<string, unknown>)[name];
    return raw === undefined ? undefined : Number(raw);
  };
  const settingValues: Record<string, unknown> = {
    reservedOutputTokens: num('reserved'),
    maxInputTokens: num('max-input'),
    'historyTrim.headroomRatio': num('headroom-ratio'),
    'historyTrim.headroomMinTokens': num('headroom-min'),
    'historyTrim.headroomMaxTokens': num('headroom-max'),
    'historyTrim.cutStepTokens': num('cut-step'),
  };
  const settings = resolveSettings((key) => settingValues[key], (message) => process.stderr.write(`warning: ${message}\n`));
  let requests;
  try {
    requests = parseReplayLines(fs.readFileSync(positionals[0], 'utf8').split('\n'));
  } catch (error) {
    process.stderr.write(`replay: ${positionals[0]}: ${(error as Error).message}\n`);
    return 1;
  }
  const limits = { contextWindow: num('context-window') ?? settings.contextLimitFallback, maxOutputTokens: num('max-output') };
  const json = values.json;
  const { steps, summary } = replaySession(requests, {
    settings,
    limits,
    onLog: json ? undefined : (level, message) => process.stdout.write(`${level === 'info' ? '' : `${level.toUpperCase()} `}${message}\n`),
  });
  if (json) {
    for (const step of steps) {
      const { promptTokens: _prompt, ...rest } = step;
      process.stdout.write(`${JSON.stringify({ ...rest, cacheHit: round(step.cacheHit, 4), trimMs: round(step.trimMs, 3) })}\n`);
    }
    process.stdout.write(`${JSON.stringify({ summary: { ...summary, meanCacheHit: round(summary.meanCacheHit, 4), meanSentTokens: Math.round(summary.meanSentTokens) } })}\n`);
  }
  return 0;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

process.exitCode = main(process.argv.slice(2));
