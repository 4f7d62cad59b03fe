/** Writes docs/benchmarks.md, docs/benchmarks/results.json and the regime (a) chart. */
import * as fs from 'fs';
import * as path from 'path';
import type { BenchResults } from '../results';
import { BENCH_DOCS_DIR, DOCS_DIR } from '../speed/repoPaths';
import { hitChartSvg, type ChartSeries } from './hitChart';
import { figuresOf } from './acceptance';
import { pct } from './format';
import { CHART_FILE, markdownReport } from './markdownReport';
import { messagesMarkdown } from './messagesReport';
import { pausesMarkdown } from './pausesReport';
import { refusalsMarkdown } from './refusalsReport';
import { stateWritesMarkdown } from '../state/stateWrites';
import { agentRegimeTable } from '../agent/agentRegime';

const CHART_POLICIES: readonly { id: string; color: string }[] = [
  { id: 'noTrim', color: '#888888' },
  { id: 'minimalFit', color: '#d9730d' },
  { id: 'leading', color: '#2f6fdb' },
  { id: 'ours', color: '#1a9a4b' },
];

/** Floats rounded so the JSON stays readable and diffs only where a number really changed. */
function roundFloats(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 10_000) / 10_000 : value;
}

/** Arrays of numbers on one line each: the per-request series stay readable instead of 300 lines long. */
function compactNumberArrays(json: string): string {
  return json.replace(/\[\n\s*(-?[\d.e+-]+(?:,\n\s*-?[\d.e+-]+)*)\n\s*\]/g, (_match, body: string) => `[${body.replace(/,\n\s*/g, ',')}]`);
}

export function regimeAChart(results: BenchResults): string | undefined {
  const a = results.regimes.find((r) => r.regime.id === 'a');
  if (!a) return undefined;
  const series: ChartSeries[] = CHART_POLICIES.map(({ id, color }) => {
    const f = figuresOf(a, id);
    return { label: f.label, color, values: a.hitSeries[id] ?? [], note: `${f.cutMoves} cut moves, mean hit ${pct(f.meanHit)}, ${f.under50} requests under 50%` };
  });
  return hitChartSvg(`Cache hit per request — regime (a): ${a.regime.title}, B = ${a.regime.budgetTokens.toLocaleString('en-US')}`, series);
}

export function writeReports(results: BenchResults): string[] {
  fs.mkdirSync(BENCH_DOCS_DIR, { recursive: true });
  const written: string[] = [];
  const write = (file: string, text: string): void => {
    fs.writeFileSync(file, text);
    written.push(path.relative(path.dirname(DOCS_DIR), file));
  };
  // Only regime (a)'s series go into the JSON (the chart's data); the others would add ~150 KB of noise.
  const json = { ...results, messages: results.messages && { ...results.messages, variants: results.messages.variants.map((v) => ({ ...v, requests: [] })) }, regimes: results.regimes.map((r) => (r.regime.id === 'a' ? r : { ...r, hitSeries: {}, keptSeries: {} })) };
  write(path.join(BENCH_DOCS_DIR, 'results.json'), compactNumberArrays(JSON.stringify(json, roundFloats, 1)) + '\n');
  const chart = regimeAChart(results);
  if (chart) write(path.join(DOCS_DIR, CHART_FILE), chart);
  write(path.join(DOCS_DIR, 'benchmarks.md'), markdownReport(results) + (results.messages ? `\n${messagesMarkdown(results.messages)}` : '') + (results.pauses ? `\n${pausesMarkdown(results.pauses)}` : '') + (results.refusals ? `\n${refusalsMarkdown(results.refusals)}` : '') + (results.agent ? `\n## Agent regime: pruning in epochs\n\n${agentRegimeTable(results.agent)}\n` : '') + (results.stateWrites ? `\n${stateWritesMarkdown(results.stateWrites)}` : ''));
  return written;
}
