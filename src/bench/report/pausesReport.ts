/** The pause regime (src/bench/pauses/pauseRegime.ts) in the benchmark's reports: dollars per cache rule, side by side, and the break-evens. */
import { PAUSE_MAX_MS, PAUSE_MIN_MS } from '../pauses/pauseDistribution';
import { BENCH_WARM_MAX, PRICED_MODELS, type PauseRegimeResult } from '../pauses/pauseRegime';

const usd = (x: number): string => `$${x.toFixed(2)}`;
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const minutes = (ms: number): string => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${Math.round(ms / 1000)} s`);

export function pausesMarkdown(result: PauseRegimeResult): string {
  const r = result.regime;
  const p = result.pauses;
  const b = result.breakEven;
  const rows = result.variants.map((v) => `| ${v.label} | ${usd(v.requestsUsd)} | ${v.warmingRequests ? `${usd(v.warmingUsd)} (${v.warmingRequests})` : '—'} | **${usd(v.requestsUsd + v.warmingUsd)}** | ${v.coldRequests} | ${pct(v.meanHit)} |`);
  return [
    '## Pause regime: what a cache lifetime is worth when you pause between turns',
    '',
    `${r.title}: ${r.requests} requests at B = ${r.budgetTokens.toLocaleString('en-US')}, trimmed by our policy, with a pause before`,
    `every turn drawn log-uniform between ${minutes(PAUSE_MIN_MS)} and ${minutes(PAUSE_MAX_MS)} (seeded; median ${minutes(p.medianMs)},`,
    `${pct(p.longerThan5m)} longer than 5 minutes, longest ${minutes(p.longestMs)}). The cache models run on a simulated clock: a prefix`,
    'cached at t is gone at t + lifetime unless read again (Anthropic: 5 minutes, or an hour with `ttl: "1h"`, writes',
    '1.25× or 2× input, reads 0.1×; OpenAI: in memory taken as 5 minutes, `prompt_cache_retention: "24h"` a day, writes',
    `at the input price, reads 0.1×). Dollars at list prices (${PRICED_MODELS.anthropic} for Anthropic, ${PRICED_MODELS.openai} for OpenAI),`,
    `input side only (the answers' output is the same in every row). Warming re-reads the prefix 30 s before it would expire, at most ${BENCH_WARM_MAX}`,
    'times per pause (`opencode.promptCache.warming`). "Cold turns": requests after the first with under 50% of the prompt cached.',
    '',
    '| cache rule | user requests | warming (requests) | total | cold turns | mean cache hit |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Break-even:',
    `- **Warming** bridges a pause more cheaply than writing the prefix again up to ${minutes(b.warmAnthropicMs)} on Anthropic (5-minute`,
    `  breakpoints) and ${minutes(b.warmOpenAiMs)} on OpenAI (in memory); with at most ${BENCH_WARM_MAX} warms per pause it reaches`,
    `  ${minutes(b.warmReachMs)}, and a longer pause goes cold after all (its warms then were spent for nothing).`,
    `- **\`ttl: "1h"\`** pays when more than ${pct(b.longTtlShare)} of pauses fall between 5 minutes and an hour (this session: each turn`,
    '  writes its growth at 0.75× input more, each such pause saves rewriting the whole prefix at 1.15× input).',
    '- **`prompt_cache_retention: "24h"`** costs nothing extra: it never loses.',
    '',
  ].join('\n');
}

export function pausesText(result: PauseRegimeResult): string {
  return result.variants
    .map((v) => `  ${v.label}: ${usd(v.requestsUsd + v.warmingUsd)}${v.warmingRequests ? ` (warming ${usd(v.warmingUsd)}, ${v.warmingRequests} requests)` : ''}, ${v.coldRequests} cold turns`)
    .join('\n');
}
