/**
 * `npm run bench`: trim policies on generated ceiling sessions, speed, activation, memory and token
 * accuracy; prints the tables and regenerates docs/benchmarks.md, docs/benchmarks/results.json and the
 * regime (a) chart. Options: --regimes=a,c (a subset; implies --no-write; `agent` is the agent regime,
 * `--regimes=agent` runs it alone), --no-sweep, --no-write.
 * Progress goes to stderr, the report to stdout.
 */
import * as os from 'os';
import * as path from 'path';
import { performance } from 'perf_hooks';
import { parseArgs } from 'util';
import { measureTokenAccuracy } from './accuracy/tokenAccuracy';
import { runMessagesRegime } from './messages/messagesRegime';
import { runPauseRegime } from './pauses/pauseRegime';
import { runRefusalRegime } from './refusals/refusalRegime';
import { measureStateWrites } from './state/stateWrites';
import { agentRegimeTable, runAgentRegime } from './agent/agentRegime';
import { PromptBlocks } from './cache/promptBlocks';
import { checkAcceptance } from './report/acceptance';
import { stdoutReport } from './report/stdoutReport';
import { writeReports } from './report/writeReports';
import type { BenchResults } from './results';
import { countTextTokens } from '../cacheModel/valueTokens';
import { runRegimes } from './run/regimePool';
import { regimeById, REGIMES } from './sessions/regimes';
import { generateSession } from './sessions/sessionGenerator';
import { measureCharsPerToken } from './sessions/textOfTokens';
import type { ActivationTimes } from './speed/activationProbe';
import { artifactSizes, ensureProductionBundle } from './speed/artifacts';
import { runProbe } from './speed/childProbe';
import type { MemoryGrowth } from './speed/memoryProbe';
import { measureTrimSpeed } from './speed/trimSpeed';
import { measureReportSpeed } from './speed/reportSpeed';

interface BenchOptions {
  regimes: string[];
  sweep: boolean;
  write: boolean;
}

function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: { regimes: { type: 'string' }, 'no-sweep': { type: 'boolean' }, 'no-write': { type: 'boolean' } },
    strict: true,
  });
  const picked = values.regimes?.split(',').filter(Boolean);
  return {
    regimes: picked ?? REGIMES.map((r) => r.id),
    sweep: !values['no-sweep'],
    write: !values['no-write'] && !picked,
  };
}

const progress = (started: number, message: string): void => {
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
};

/** Longest first, so the two workers finish at about the same time. */
const SCHEDULE = ['d', 'a', 'c', 'b', 'e'];

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = os.loadavg()[0];
  const options = parseOptions(process.argv.slice(2));
  if (options.regimes.length === 1 && options.regimes[0] === 'agent') {
    process.stdout.write(`${agentRegimeTable(runAgentRegime())}\n`);
    return;
  }
  const builtDist = ensureProductionBundle();
  // The memory probe only allocates; it shares the CPU with the regime workers (its time is not a figure).
  const memory = runProbe<MemoryGrowth>(path.join(__dirname, 'speed', 'memoryProbe.js'), ['--expose-gc']);

  const jobs = REGIMES.filter((r) => options.regimes.includes(r.id))
    .sort((x, y) => SCHEDULE.indexOf(x.id) - SCHEDULE.indexOf(y.id))
    .map((r) => ({ regimeId: r.id, sweep: options.sweep }));
  if (jobs.length === 0) throw new Error(`no regime matches ${options.regimes.join(',')}`);
  const threads = Math.min(2, os.availableParallelism());
  progress(started, `running ${jobs.length} regime(s) on ${threads} worker thread(s)`);
  const finished = await runRegimes(jobs, threads, (r) => progress(started, `regime (${r.regime.id}) done: ${r.session.prefillMessages} messages, ${r.session.prefillTokens} tokens at request 0`));
  const regimes = REGIMES.flatMap((spec) => finished.filter((r) => r.regime.id === spec.id));

  const messages = options.write ? runMessagesRegime() : undefined;
  if (messages) progress(started, 'Messages regime done');
  const pauses = options.write ? runPauseRegime() : undefined;
  if (pauses) progress(started, 'pause regime done');
  const refusals = options.write ? runRefusalRegime() : undefined;
  if (refusals) progress(started, 'refusal regime done');
  const stateWrites = await measureStateWrites();
  progress(started, 'saved-state writes done');
  const agent = options.write || options.regimes.includes('agent') ? runAgentRegime() : undefined;
  if (agent) progress(started, 'agent regime done');
  const accuracy = measureTokenAccuracy();
  const speedRegime = regimeById(options.regimes.includes('a') ? 'a' : jobs[0].regimeId);
  const speedSession = generateSession(speedRegime, new PromptBlocks().sizer('json'), measureCharsPerToken(countTextTokens));
  const memoryGrowth = await memory;
  progress(started, 'memory probe done; timing the trim alone');
  const trim = measureTrimSpeed(speedSession);
  progress(started, 'timing the open session report');
  const report = measureReportSpeed();
  const activation = await runProbe<ActivationTimes>(path.join(__dirname, 'speed', 'activationProbe.js'));
  const cpus = os.cpus();
  const results: BenchResults = {
    generatedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? 'unknown',
      // Other work on the machine slows every timing here; the 1-minute load average tells a reader how much.
      loadAverage: [loadBefore, os.loadavg()[0]],
    },
    benchMs: 0,
    regimes,
    acceptance: checkAcceptance(regimes, trim, report),
    speed: { trim, report, activation, memory: memoryGrowth, artifacts: artifactSizes(builtDist) },
    accuracy,
    messages,
    pauses,
    refusals,
    stateWrites,
    agent,
  };
  results.benchMs = performance.now() - started;
  process.stdout.write(stdoutReport(results));
  if (options.write) progress(started, `wrote ${writeReports(results).join(', ')}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
