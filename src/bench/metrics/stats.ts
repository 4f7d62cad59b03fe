/** Small descriptive statistics over plain number arrays. */

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let total = 0;
  for (const value of values) total += value;
  return total / values.length;
}

/** Nearest-rank percentile (p in 0…100): a value that actually occurred. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function min(values: readonly number[]): number {
  return values.length ? Math.min(...values) : 0;
}

export function max(values: readonly number[]): number {
  return values.length ? Math.max(...values) : 0;
}
