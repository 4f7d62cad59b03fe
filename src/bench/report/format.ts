/** Number formatting shared by the tables and the Markdown report. */

export const pct = (ratio: number, digits = 1): string => `${(ratio * 100).toFixed(digits)}%`;

export const signedPct = (value: number, digits = 1): string => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}%`;

/** 613952 → "614.0K"; small numbers stay whole. */
export const kTokens = (tokens: number): string => (Math.abs(tokens) >= 10_000 ? `${(tokens / 1000).toFixed(1)}K` : `${Math.round(tokens)}`);

export const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

export const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(2)} MB`;

export const whole = (value: number): string => Math.round(value).toLocaleString('en-US');

export function range(values: readonly number[], format: (v: number) => string): string {
  if (values.length === 0) return '—';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? format(lo) : `${format(lo)}–${format(hi)}`;
}
