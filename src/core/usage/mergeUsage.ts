/**
 * Usage can arrive in several frames: Anthropic-style gateways send the prompt side first and a trailing frame
 * with only the output tokens; Gemini-style gateways repeat cumulative usageMetadata on every chunk. Each new
 * frame updates the fields it carries and keeps the others, so a trailing `{output_tokens}` never resets the
 * context to 0. Pure, on the raw objects (the reader in normalizeUsage.ts runs on the merged record).
 */
export function mergeUsage(earlier: Record<string, unknown> | undefined, next: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(next)) {
    // A null or absent field says nothing; a present one is the newest (cumulative) value.
    if (value !== null && value !== undefined) merged[key] = value;
  }
  return merged;
}
