/**
 * `npm run bench:messages`: the Messages regime (messagesRegime.ts) — our cache breakpoints against the first
 * 4 blocks on the same ceiling session — as a table on stdout, or JSON with --json. Writes nothing.
 */
import { parseArgs } from 'util';
import { READ_PRICE, runMessagesRegime, WRITE_PRICE, type MessagesRegimeResult } from './messagesRegime';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const k = (x: number) => `${(x / 1000).toFixed(0)}K`;

export function messagesTable(result: MessagesRegimeResult): string {
  const lines = [
    `Messages regime (${result.regime.title}); ${result.regime.requests} requests, budget ${result.regime.budgetTokens}, ${result.cutMoves} cut moves`,
    `prices relative to input: cache write ${WRITE_PRICE}×, cache read ${READ_PRICE}×`,
    '',
    '| breakpoints | mean cache hit | cache writes | cache reads | uncached input | cost vs no caching |',
    '|---|---|---|---|---|---|',
  ];
  for (const v of result.variants) {
    const t = v.totals;
    lines.push(`| ${v.label} | ${pct(t.meanHit)} | ${k(t.write)} | ${k(t.read)} | ${k(t.uncached)} | ${pct(t.relativeCost)} |`);
  }
  lines.push('', 'per request (every 10th): i, ours hit/write/read/uncached | first-4 hit/write/read/uncached');
  const [ours, first4] = result.variants;
  for (let i = 0; i < ours.requests.length; i += 10) {
    const a = ours.requests[i];
    const b = first4.requests[i];
    lines.push(`${i}: ${pct(a.hit)} ${a.write}/${a.read}/${a.uncached} | ${pct(b.hit)} ${b.write}/${b.read}/${b.uncached}`);
  }
  return `${lines.join('\n')}\n`;
}

function main(): void {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { json: { type: 'boolean', default: false } }, strict: true });
  const result = runMessagesRegime();
  process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : messagesTable(result));
}

if (require.main === module) main();
