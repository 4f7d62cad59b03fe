/**
 * The report's chart, drawn with the one SVG writer (svg.ts): one bar per request, split cached / uncached
 * prompt tokens; the cache hit as a line on a 0–100% scale; cut moves marked; the budget and the low-water
 * mark as horizontal lines. Colours are CSS classes the page maps to theme variables.
 */
import type { RequestRecord } from './requestLog';
import { el, hLine, niceMax, polyline, svgDocument, text, title, whole } from './svg';

export const CHART = { width: 760, height: 280, left: 56, right: 44, top: 20, bottom: 28 };

const fmt = whole;

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
    parts.push(hLine(left, width - right, y(max * frac), { class: 'grid' }));
    parts.push(text(left - 6, y(max * frac), fmt(max * frac), { class: 'axis', 'text-anchor': 'end', 'dominant-baseline': 'middle' }));
    parts.push(text(width - right + 6, top + plotH - frac * plotH, `${frac * 100}%`, { class: 'axis', 'dominant-baseline': 'middle' }));
  }
  records.forEach((r, i) => {
    const cachedTop = y(r.cachedTokens);
    const promptTop = y(r.promptTokens);
    const label = title(`#${i + 1}: prompt ${fmt(r.promptTokens)}, cached ${fmt(r.cachedTokens)} (${(r.cacheHit * 100).toFixed(1)}%), cut ${r.cutMoved ? 'moved' : 'held'}, ${r.removed} not sent`);
    parts.push(el('g', { class: 'bar' }, label +
      el('rect', { class: 'cached', x: x(i), y: cachedTop, width: barW, height: top + plotH - cachedTop }) +
      el('rect', { class: 'cold', x: x(i), y: promptTop, width: barW, height: Math.max(0, cachedTop - promptTop) })));
    if (r.cutMoved) parts.push(el('path', { class: 'move', d: `M${(x(i) + barW / 2).toFixed(1)} ${top + plotH + 3} l-5 9 h10 z` }, title(`cut moved at #${i + 1}`)));
  });
  if (budget > 0 && !budgetOnScale) {
    parts.push(text(width - right, top - 4, `budget ${fmt(budget)} and low-water mark ${fmt(last.lowWater)}: above the scale`, { class: 'axis', 'text-anchor': 'end' }));
  }
  if (budgetOnScale) {
    parts.push(el('line', { class: 'budget', x1: left, x2: width - right, y1: y(budget), y2: y(budget) }, title(`budget ${fmt(budget)}`)));
    parts.push(el('line', { class: 'lowwater', x1: left, x2: width - right, y1: y(last.lowWater), y2: y(last.lowWater) }, title(`low-water mark ${fmt(last.lowWater)}`)));
  }
  if (records.length > 0) parts.push(polyline(records.map((r, i) => [x(i) + barW / 2, top + plotH - r.cacheHit * plotH]), { class: 'hit' }));
  const summary = `${records.length} requests; budget ${fmt(budget)} tokens; ${records.filter((r) => r.cutMoved).length} cut moves`;
  return svgDocument(width, height, parts.join(''), { class: 'chart', role: 'img', 'aria-label': `Prompt tokens and cache hit per request: ${summary}` });
}
