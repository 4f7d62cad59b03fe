/**
 * The report's chart, drawn by hand as SVG (no library: a few rectangles, two lines and a polyline are
 * smaller than any charting bundle and need no script): one bar per request, split cached / uncached
 * prompt tokens; the cache hit as a line on a 0–100% scale; cut moves marked; the budget and the
 * low-water mark as horizontal lines. Colours are CSS classes the page maps to theme variables.
 */
import type { RequestRecord } from './requestLog';

export const CHART = { width: 760, height: 280, left: 56, right: 44, top: 20, bottom: 28 };

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

function niceMax(n: number): number {
  if (n <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  const steps = [1, 2, 2.5, 5, 10];
  return (steps.find((s) => s * magnitude >= n) ?? 10) * magnitude;
}

export function chartSvg(records: readonly RequestRecord[]): string {
  const { width, height, left, right, top, bottom } = CHART;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const last = records[records.length - 1];
  const budget = last && Number.isFinite(last.budget) ? last.budget : 0;
  const largest = Math.max(0, ...records.map((r) => r.promptTokens));
  // A budget far above every prompt would flatten the bars: scale to the prompts and say where the budget is.
  const budgetOnScale = budget > 0 && budget <= 2.5 * largest;
  const max = niceMax(budgetOnScale ? Math.max(budget, largest) : largest);
  const y = (tokens: number): number => top + plotH - (tokens / max) * plotH;
  const slot = plotW / Math.max(1, records.length);
  const barW = Math.max(1, slot * 0.7);
  const x = (i: number): number => left + i * slot + (slot - barW) / 2;
  const parts: string[] = [];
  for (const frac of [0, 0.25, 0.5, 0.75, 1]) {
    const yy = y(max * frac).toFixed(1);
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${yy}" y2="${yy}"/>`);
    parts.push(`<text class="axis" x="${left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle">${fmt(max * frac)}</text>`);
    parts.push(`<text class="axis" x="${width - right + 6}" y="${(top + plotH - frac * plotH).toFixed(1)}" dominant-baseline="middle">${frac * 100}%</text>`);
  }
  records.forEach((r, i) => {
    const xs = x(i).toFixed(1);
    const cachedTop = y(r.cachedTokens);
    const promptTop = y(r.promptTokens);
    const label = `<title>#${i + 1}: prompt ${fmt(r.promptTokens)}, cached ${fmt(r.cachedTokens)} (${(r.cacheHit * 100).toFixed(1)}%), cut ${r.cutMoved ? 'moved' : 'held'}, ${r.removed} not sent</title>`;
    parts.push(`<g class="bar">${label}<rect class="cached" x="${xs}" y="${cachedTop.toFixed(1)}" width="${barW.toFixed(1)}" height="${(top + plotH - cachedTop).toFixed(1)}"/>` +
      `<rect class="cold" x="${xs}" y="${promptTop.toFixed(1)}" width="${barW.toFixed(1)}" height="${Math.max(0, cachedTop - promptTop).toFixed(1)}"/></g>`);
    if (r.cutMoved) parts.push(`<path class="move" d="M${(x(i) + barW / 2).toFixed(1)} ${top + plotH + 3} l-5 9 h10 z"><title>cut moved at #${i + 1}</title></path>`);
  });
  if (budget > 0 && !budgetOnScale) {
    parts.push(`<text class="axis" x="${width - right}" y="${top - 4}" text-anchor="end">budget ${fmt(budget)} and low-water mark ${fmt(last.lowWater)}: above the scale</text>`);
  }
  if (budgetOnScale) {
    parts.push(`<line class="budget" x1="${left}" x2="${width - right}" y1="${y(budget).toFixed(1)}" y2="${y(budget).toFixed(1)}"><title>budget ${fmt(budget)}</title></line>`);
    parts.push(`<line class="lowwater" x1="${left}" x2="${width - right}" y1="${y(last.lowWater).toFixed(1)}" y2="${y(last.lowWater).toFixed(1)}"><title>low-water mark ${fmt(last.lowWater)}</title></line>`);
  }
  const hitPoints = records.map((r, i) => `${(x(i) + barW / 2).toFixed(1)},${(top + plotH - r.cacheHit * plotH).toFixed(1)}`);
  if (hitPoints.length > 0) parts.push(`<polyline class="hit" points="${hitPoints.join(' ')}"/>`);
  const summary = `${records.length} requests; budget ${fmt(budget)} tokens; ${records.filter((r) => r.cutMoved).length} cut moves`;
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="Prompt tokens and cache hit per request: ${summary}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg>`;
}
