/**
 * Cache hit per request as SVG, drawn with the project's one SVG writer (core/report/svg.ts): one panel per
 * policy, stacked on a shared request axis, so a policy that moves its cut shows as a row of dips (one panel
 * per policy reads better than four overlapping lines that all sit near 100%).
 */
import { el, esc, hLine, polyline, svgDocument, text } from '../../core/report/svg';

export interface ChartSeries {
  label: string;
  /** Shown right of the label, e.g. "8 cut moves, mean 97.1%". */
  note: string;
  color: string;
  /** Cache hit ratio (0…1) per request. */
  values: readonly number[];
}

const WIDTH = 920;
const LEFT = 56;
const RIGHT = 16;
const TOP = 44;
const PANEL_HEIGHT = 96;
const PANEL_GAP = 36;
const BOTTOM = 40;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const GREY = { 'font-size': 11, fill: '#666' };

function panel(series: ChartSeries, top: number): string {
  const step = series.values.length > 1 ? PLOT_WIDTH / (series.values.length - 1) : 0;
  const grid = [0, 0.5, 1].map((v) => {
    const y = top + (1 - v) * PANEL_HEIGHT;
    return hLine(LEFT, WIDTH - RIGHT, y, { stroke: '#ddd', 'stroke-width': 1 }) + text(LEFT - 6, y, `${v * 100}%`, { dy: 4, 'text-anchor': 'end', ...GREY });
  });
  const label = el('text', { x: LEFT, y: top - 8, 'font-size': 13, 'font-weight': 'bold', fill: series.color }, esc(series.label) + el('tspan', { 'font-weight': 'normal', fill: '#444' }, esc(` — ${series.note}`)));
  const line = polyline(series.values.map((v, i) => [LEFT + i * step, top + (1 - v) * PANEL_HEIGHT]), { fill: 'none', stroke: series.color, 'stroke-width': 1.5, 'stroke-linejoin': 'round' });
  return el('g', {}, grid.join('') + label + line);
}

function requestAxis(count: number, y: number): string {
  const ticks: string[] = [];
  const every = count > 200 ? 50 : count > 50 ? 10 : 5;
  for (let i = 0; i < count; i += every) {
    const x = LEFT + (count > 1 ? (i * PLOT_WIDTH) / (count - 1) : 0);
    ticks.push(el('line', { x1: x, y1: y, x2: x, y2: y + 4, stroke: '#666' }) + text(x, y + 16, String(i), { 'text-anchor': 'middle', ...GREY }));
  }
  return ticks.join('') + text(LEFT + PLOT_WIDTH / 2, y + 32, 'request', { 'text-anchor': 'middle', 'font-size': 12, fill: '#444' });
}

export function hitChartSvg(title: string, series: readonly ChartSeries[]): string {
  const height = TOP + series.length * (PANEL_HEIGHT + PANEL_GAP) - PANEL_GAP + BOTTOM;
  const count = Math.max(0, ...series.map((s) => s.values.length));
  const panels = series.map((s, k) => panel(s, TOP + 8 + k * (PANEL_HEIGHT + PANEL_GAP))).join('\n');
  const axisY = TOP + 8 + series.length * (PANEL_HEIGHT + PANEL_GAP) - PANEL_GAP;
  const body = [
    el('rect', { width: '100%', height: '100%', fill: '#fff' }),
    text(LEFT, 22, title, { 'font-size': 15, 'font-weight': 'bold', fill: '#222' }),
    panels,
    requestAxis(count, axisY),
  ].join('\n');
  return `${svgDocument(WIDTH, height + 8, body, { width: WIDTH, height: height + 8, 'font-family': 'system-ui, -apple-system, Segoe UI, sans-serif' })}\n`;
}
