/**
 * The one SVG writer: the few elements the project's charts are made of (the session report's chart,
 * chartSvg.ts, and the benchmark's cache-hit panels, src/bench/report/hitChart.ts), each a string with its
 * attributes escaped. No charting library: a handful of lines, texts and polylines is smaller than any bundle.
 */

/** Text or an attribute value made safe for HTML and SVG. */
const SPECIAL = /[&<>"']/;
export function esc(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`) : text;
}

export type Attrs = Record<string, string | number | undefined>;

/** One decimal, as the charts need (a tenth of a pixel). */
const num = (v: number): string => String(Math.round(v * 10) / 10);

function attrs(a: Attrs): string {
  let out = '';
  for (const k in a) {
    const v = a[k];
    if (v !== undefined) out += ` ${k}="${typeof v === 'number' ? num(v) : esc(v)}"`;
  }
  return out;
}

/** An element; `inner` is markup already (use text() or esc() for words). */
export function el(name: string, a: Attrs, inner?: string): string {
  return inner === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${inner}</${name}>`;
}

export function text(x: number, y: number, words: string, a: Attrs = {}): string {
  return el('text', { x, y, ...a }, esc(words));
}

export function hLine(x1: number, x2: number, y: number, a: Attrs = {}): string {
  return el('line', { x1, x2, y1: y, y2: y, ...a });
}

export function polyline(points: readonly [number, number][], a: Attrs = {}): string {
  return el('polyline', { ...a, points: points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ') });
}

/** A tooltip for the element it is the first child of. */
export const title = (words: string): string => `<title>${esc(words)}</title>`;

export function svgDocument(width: number, height: number, body: string, a: Attrs = {}): string {
  return el('svg', { ...a, viewBox: `0 0 ${width} ${height}`, xmlns: 'http://www.w3.org/2000/svg' }, body);
}

/** The smallest 1, 2, 2.5 or 5 × 10ⁿ at or above n (an axis maximum). */
export function niceMax(n: number): number {
  if (n <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 2.5, 5, 10].find((s) => s * magnitude >= n) ?? 10) * magnitude;
}

/** 1234567.8 → "1,234,568" (as toLocaleString('en-US'), which costs a formatter per call: the report prints thousands). */
export function whole(n: number): string {
  const digits = String(Math.abs(Math.round(n)));
  let out = '';
  for (let i = 0; i < digits.length; i++) out += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
  return n <= -0.5 ? `-${out}` : out;
}
