/**
 * Cache hit per request as hand-written SVG: one panel per policy, stacked on a shared request axis, so a
 * policy that moves its cut shows as a row of dips (one panel per policy reads better than four
 * overlapping lines that all sit near 100%).
 */

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

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function points(values: readonly number[], top: number): string {
  const step = values.length > 1 ? PLOT_WIDTH / (values.length - 1) : 0;
  return values.map((v, i) => `${(LEFT + i * step).toFixed(1)},${(top + (1 - v) * PANEL_HEIGHT).toFixed(1)}`).join(' ');
}

function panel(series: ChartSeries, top: number): string {
  const grid = [0, 0.5, 1]
    .map((v) => {
      const y = (top + (1 - v) * PANEL_HEIGHT).toFixed(1);
      return `<line x1="${LEFT}" y1="${y}" x2="${WIDTH - RIGHT}" y2="${y}" stroke="#ddd" stroke-width="1"/>` +
        `<text x="${LEFT - 6}" y="${y}" dy="4" text-anchor="end" font-size="11" fill="#666">${v * 100}%</text>`;
    })
    .join('');
  return (
    `<g>${grid}` +
    `<text x="${LEFT}" y="${top - 8}" font-size="13" font-weight="bold" fill="${series.color}">${escapeXml(series.label)}` +
    `<tspan font-weight="normal" fill="#444"> — ${escapeXml(series.note)}</tspan></text>` +
    `<polyline fill="none" stroke="${series.color}" stroke-width="1.5" stroke-linejoin="round" points="${points(series.values, top)}"/></g>`
  );
}

function requestAxis(count: number, y: number): string {
  const ticks: string[] = [];
  const every = count > 200 ? 50 : count > 50 ? 10 : 5;
  for (let i = 0; i < count; i += every) {
    const x = (LEFT + (count > 1 ? (i * PLOT_WIDTH) / (count - 1) : 0)).toFixed(1);
    ticks.push(`<line x1="${x}" y1="${y}" x2="${x}" y2="${y + 4}" stroke="#666"/><text x="${x}" y="${y + 16}" text-anchor="middle" font-size="11" fill="#666">${i}</text>`);
  }
  return ticks.join('') + `<text x="${LEFT + PLOT_WIDTH / 2}" y="${y + 32}" text-anchor="middle" font-size="12" fill="#444">request</text>`;
}

export function hitChartSvg(title: string, series: readonly ChartSeries[]): string {
  const height = TOP + series.length * (PANEL_HEIGHT + PANEL_GAP) - PANEL_GAP + BOTTOM;
  const count = Math.max(0, ...series.map((s) => s.values.length));
  const panels = series.map((s, k) => panel(s, TOP + 8 + k * (PANEL_HEIGHT + PANEL_GAP))).join('\n');
  const axisY = TOP + 8 + series.length * (PANEL_HEIGHT + PANEL_GAP) - PANEL_GAP;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height + 8}" width="${WIDTH}" height="${height + 8}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${LEFT}" y="22" font-size="15" font-weight="bold" fill="#222">${escapeXml(title)}</text>`,
    panels,
    requestAxis(count, axisY),
    '</svg>',
    '',
  ].join('\n');
}
