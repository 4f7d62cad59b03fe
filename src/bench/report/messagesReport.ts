/**
 * The Messages regime in the benchmark's reports: our cache breakpoints against the first 4 blocks on the same
 * ceiling session (src/bench/messages/messagesRegime.ts), with the prices the cost column assumes.
 */
import { READ_PRICE, WRITE_PRICE, type MessagesRegimeResult } from '../messages/messagesRegime';

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const thousands = (x: number): string => `${Math.round(x / 1000).toLocaleString('en-US')}K`;

/** Requests in a row below this hit count as cold. */
const COLD_HIT = 0.5;

function longestColdRun(hits: readonly number[]): number {
  let longest = 0;
  let run = 0;
  for (const hit of hits.slice(1)) {
    run = hit < COLD_HIT ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** The Markdown section: what was compared, the prices, one row per breakpoint rule. */
export function messagesMarkdown(result: MessagesRegimeResult): string {
  const r = result.regime;
  const rows = result.variants.map((v) => {
    const t = v.totals;
    const cold = longestColdRun(v.requests.map((q) => q.hit));
    return `| ${v.label} | ${pct(t.meanHit)} | ${cold} | ${thousands(t.write)} | ${thousands(t.read)} | ${thousands(t.uncached)} | ${pct(t.relativeCost)} |`;
  });
  return [
    '## Messages regime: cache breakpoints that follow the conversation',
    '',
    `${r.title}; ${r.requests} requests at B = ${r.budgetTokens.toLocaleString('en-US')}, trimmed by our policy (the same cut on`,
    `every route; ${result.cutMoves} cut moves), sent as our Messages body to the Anthropic cache model`,
    '(`src/cacheModel/breakpointCache.ts`: nothing is cached unless a breakpoint marks it, at most 4, 20-block lookback).',
    'Two breakpoint rules on the same bodies: ours (last tool, last system block, the newest block and where the',
    "previous request's newest block was) and the first 4 blocks (the leading extension's and OpenCode's converter's).",
    `Prices relative to plain input (Anthropic's): cache write ${WRITE_PRICE}×, cache read ${READ_PRICE}×; "cost" is the`,
    'billed input relative to the same prompts with no caching. "Cold run" is the longest run of requests under 50% hit.',
    '',
    '| breakpoints | mean cache hit | longest cold run | billed as cache writes | cache reads | uncached input | cost vs no caching |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** The same figures for stdout. */
export function messagesText(result: MessagesRegimeResult): string {
  return result.variants
    .map((v) => `  ${v.label}: hit ${pct(v.totals.meanHit)}, writes ${thousands(v.totals.write)}, reads ${thousands(v.totals.read)}, uncached ${thousands(v.totals.uncached)}, cost ${pct(v.totals.relativeCost)} of no caching`)
    .join('\n');
}
