/**
 * Reading one field out of untrusted JSON (a stream payload, an error body, a catalogue entry): the field as the
 * type the reader wants, or a neutral value, never a throw. The one place these small readers live, beside the
 * object guard they build on (isRecord).
 */

/** A plain JSON-like object (not null, not an array): the one guard for untrusted JSON in the code base. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string, else '' (a missing or mistyped text adds nothing). */
export function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A string with at least one character, else undefined (an id or a signature that is empty is none). */
export function filledString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The object, else an empty one, so the reader can look its fields up without another check. */
export function recordField(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** The number, else `fallback` (a position or count that is missing reads as the caller's "none"). */
export function numberField(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/** A finite number ≥ 0 (dollars, token counts, sizes); NaN, infinities, negatives and other types are not. */
export function isNonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
