/**
 * docs/benchmarks.md, regenerated on every run: the findings first (computed from this run's numbers),
 * then the tables, then how the numbers were made and what they do not show.
 */
import type { BenchResults } from '../results';
import type { RegimeResult } from '../run/compareRegime';
import {
  acceptanceTable, accuracyTable, parametersTable, policyTable, sessionsTable, speedTable, sweepTable,
} from './benchTables';
import { regimeFindings } from './findings';
import { renderMarkdown } from './tables';

export const CHART_FILE = 'benchmarks/cache-hit-regime-a.svg';

function findingsSection(regimes: readonly RegimeResult[]): string {
  const lines: string[] = [];
  for (const result of regimes) {
    const f = regimeFindings(result);
    lines.push(`* **(${result.regime.id}) ${result.regime.title}** — ${f.summary}`);
    if (f.losses.length === 0) lines.push('  Ours is at least as good as the leading policy on every figure here.');
    for (const loss of f.losses) lines.push(`  * Where we do not win: ${loss}`);
  }
  return lines.join('\n');
}

/** One parameters table per distinct budget: the policies' geometry is the same for every regime at a budget. */
function parameterTables(regimes: readonly RegimeResult[]): string {
  const seen = new Set<number>();
  const tables: string[] = [];
  for (const result of regimes) {
    if (seen.has(result.regime.budgetTokens)) continue;
    seen.add(result.regime.budgetTokens);
    tables.push(renderMarkdown(parametersTable(result)));
  }
  return tables.join('\n\n');
}

const METHOD = `## How the numbers are made

* **Sessions** are generated from a seed (\`src/bench/sessions/\`), no data files: a system prompt and tool
  definitions (~70K tokens at B = 613,952, like the seed's 69,888; ~20K in (e)), an anchor task, history pre-filled to about
  two requests of growth under the budget, then one step per request — mostly an assistant tool call with its
  results (parallel calls in (d)), and now and then (one request in 4 to 10, by regime) an assistant answer
  plus the next user message, so there is a current turn. Text comes from the seeded generators in \`src/test/fixtures/textSamples.ts\`.
  Sizes are o200k tokens; the "mean unit" and "growth/request" columns are measured, not the targets.
* **Cache**: each policy run gets its own \`PrefixCacheModel\` (the fake server's exact-prefix model: whole
  message blocks, o200k counts, 64-token granularity) under one session id. The session reached the ceiling from
  below, so every run starts with the previous turn (the pre-fill without the current user message) cached.
  Message blocks (sha1 + o200k count) are measured once per message object and fed to each run's model with
  \`observeMeasured\`, which gives the same numbers as \`observe\` without re-hashing megabytes per request.
* **Policies**: *no trimming* sends everything (cost baseline; it exceeds B). *Minimal fit* drops the oldest
  units until the payload fits B (our estimator). *Leading extension* is its published rule, re-implemented here
  from its description: trim only above B; drop the oldest units until at or below the low-water mark B − H
  (bytes too, at 4.5 bytes per token), then on to the next multiple of the cut step S of dropped tokens;
  H = 3% of B clamped to 8,192…32,768, S = 32,768, both ≤ 10% of B; tokens = chars/4 + 10%. *Leading rule, our
  estimator* is the same rule with our estimator, to separate the rule from the estimate. *Ours* is
  \`planTrim\` + \`accountUsage\` exactly as the extension runs them (calibration included). All of them keep the
  same head (system + anchor) and tail (current turn) and cut whole units, so only the cut rule and the
  estimator differ.
* **Figures**: a *cut move* is a request whose number of dropped messages differs from the previous request's
  (the cached prefix breaks at the cut). *Kept* = o200k prompt tokens sent. *Landings* = kept tokens on the
  requests that moved the cut. *Over B* = requests whose o200k prompt exceeds the budget. *Cost* counts input
  tokens only (output is the same whatever the trim), cached tokens at 10% of the input price, divided by the
  no-trimming run's cost on the same session.

## What these numbers do not show

* The cache model matches whole messages, never expires and has no minimum length; real providers match tokens
  (DeepSeek in stored units, OpenAI in 128-token steps) and evict. Use it to compare policies, not to predict a
  bill.
* o200k stands in for every model's tokenizer. Against a DeepSeek/Kimi/GLM/Qwen tokenizer the leading policy's
  chars/4 error has the same sign but not the same size; ours calibrates against whatever the API reports.
* The leading policy is re-implemented from its published description, not run from its code. Details the
  description leaves open were chosen as stated above (the same units, head and tail as ours; bytes get the same
  low-water treatment; the step grid is counted in tokens).
* Cost is relative to a baseline that cannot exist at the ceiling: no trimming exceeds the budget, which a real
  endpoint rejects. A policy that keeps more context pays for it on every request, so "cheaper" is not
  "better": the figures to weigh together are cut moves, hit rate, kept context and cost.
`;

export function markdownReport(results: BenchResults): string {
  const env = results.environment;
  const a = results.regimes.find((r) => r.regime.id === 'a');
  const perRegime = results.regimes
    .map((r) => `### (${r.regime.id}) ${r.regime.title}\n\n${renderMarkdown(policyTable(r))}`)
    .join('\n\n');
  const sweeps = results.regimes
    .filter((r) => r.sweep.length > 0)
    .map((r) => `### (${r.regime.id}) ${r.regime.title}\n\n${renderMarkdown(sweepTable(r))}`)
    .join('\n\n');
  const accuracy = results.accuracy;
  return `# Benchmarks

Generated by \`npm run bench\` (\`src/bench/\`) on ${results.generatedAt.slice(0, 10)} — Node ${env.node}, ${env.cpus} × ${env.cpuModel}.
The benchmark itself ran ${(results.benchMs / 1000).toFixed(1)} s. Every number below is from that run;
\`docs/benchmarks/results.json\` holds the same numbers (and the per-request series of regime (a)).

Five generated agent sessions sit at the context ceiling for ${a?.regime.requests ?? 300} requests each. Each trim
policy runs on the same sessions through the same prefix-cache model; we count how often the cut moves (each move
re-bills the whole history at full price), the cache hit per request, how much context is kept, and the input cost.

${a ? `![Cache hit per request, regime (a)](${CHART_FILE})\n` : ''}
## Acceptance bar (trim issue)

On the 300-request ceiling sessions at B = 613,952 (regimes b, c, d): ours at least 30% fewer cut moves than the
leading policy while keeping at least as many tokens on average; warm trim median ≤ 5 ms, cold ≤ 40 ms.
**Overall: ${results.acceptance.pass ? 'PASS' : 'FAIL'}.**

${renderMarkdown(acceptanceTable(results.acceptance))}

## What this run shows

${findingsSection(results.regimes)}

## Results per regime

${renderMarkdown(sessionsTable(results.regimes))}

${parameterTables(results.regimes)}

${perRegime}

## Sweep of our settings

\`opencode.historyTrim.cutStepTokens\` × \`opencode.historyTrim.headroomRatio\` (ratio 0 also sets
\`headroomMinTokens\` to 0). Each cut move frees step + headroom tokens: a larger grid moves the cut less often and
keeps less context on average.

${sweeps}

## Speed

Trim times are on regime (a): request 0 cold (a fresh SizeMemo, repeated with a new memo each time; the first
run also pays for JIT warm-up), then every later request warm. Activation is a fresh Node process requiring the
production bundle with the shared vscode test double. The SizeMemo figure is the heap freed when the memo is
dropped after a ${results.speed.memory.requests}-request session (node --expose-gc).

${renderMarkdown(speedTable(results.speed))}

## Token counting accuracy

Percent error against o200k (gpt-tokenizer) on ${accuracy.rows[0]?.chars.toLocaleString('en-US') ?? 0}-character seeded samples; negative = under-count
(the direction that overflows a budget). Our estimator ran at ${accuracy.estimateMBps.toFixed(0)} MB/s, the o200k tokenizer at
${accuracy.o200kMBps.toFixed(1)} MB/s (UTF-16 characters).

${renderMarkdown(accuracyTable(accuracy))}

${METHOD}`;
}
