/**
 * npm run --silent replay -- FILE [--context-window N] [--max-output N] [--reserved N]
 *   [--headroom-ratio X] [--headroom-min N] [--headroom-max N] [--cut-step N] [--max-input N]
 *   [--api chat|responses|messages|gemini] [--json]
 *
 * Replays a recorded session (opencode.recordRequests writes them) through the extension's trim path.
 * Without --json it prints the lines the extension would log; with --json one object per request and a
 * summary. `--api` picks the provider cache that stands in for usage (exact prefix for chat and Responses,
 * Anthropic's breakpoints for Messages); without it, each request's recorded route (chat for recordings without
 * one). The cut is the same on every route. Settings are validated exactly as the extension validates them (warnings on stderr). Exit codes:
 * 0 done, 1 the file cannot be read or a line is malformed (the error names the line and field), 2 a bad
 * command line (the error names the flag).
 */
import * as fs from 'fs';
import { resolveSettings } from '../core/config/settings';
import { parseReplayArgs, UsageError, USAGE, type ReplayArgs } from '../replay/replayArgs';
import { parseReplayLines } from '../core/replay/replayFile';
import { replaySession } from '../replay/replaySession';

function main(argv: string[]): number {
  let args: ReplayArgs;
  try {
    const parsed = parseReplayArgs(argv);
    if (parsed.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    args = parsed.args;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`replay: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  const settings = resolveSettings((key) => args.settingValues[key], (message) => process.stderr.write(`warning: ${message}\n`));
  let requests;
  try {
    requests = parseReplayLines(fs.readFileSync(args.file, 'utf8').split('\n'));
  } catch (error) {
    process.stderr.write(`replay: ${args.file}: ${(error as Error).message}\n`);
    return 1;
  }
  const limits = { contextWindow: args.contextWindow ?? settings.contextLimitFallback, maxOutputTokens: args.maxOutputTokens };
  const { steps, summary } = replaySession(requests, {
    settings,
    limits,
    api: args.api,
    onLog: args.json ? undefined : (level, message) => process.stdout.write(`${level === 'info' ? '' : `${level.toUpperCase()} `}${message}\n`),
  });
  if (args.json) {
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
