/** A plain JSON-like object (not null, not an array): the one guard for untrusted JSON in the code base. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
