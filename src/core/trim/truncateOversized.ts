/**
 * The last resort when even the smallest safe history does not fit: one message (a pasted log, a huge tool
 * output) is larger than the whole budget. Rather than send a request the endpoint will reject, the largest
 * kept messages lose the middle of their text, replaced by a marker that says how much was cut. The result
 * is deterministic (same input, same cut), the originals are not modified, and the caller logs it.
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { WireMessage } from '../wire/wireTypes';

export interface Truncation {
  index: number;
  role: WireMessage['role'];
  fromTokens: number;
  toTokens: number;
}

/** Messages shorter than this are never worth truncating: they cannot free enough. */
const MIN_TRUNCATABLE_TOKENS = 512;

export function truncationMarker(removedChars: number): string {
  return `\n\n[… ${removedChars} characters removed by the OpenCode extension to fit the model's context window …]\n\n`;
}

/**
 * Shrinks the largest string contents until `excessTokens` (estimated, calibrated) are freed.
 * `calibration` converts estimator units to the endpoint's tokens, as in the trim.
 */
export function truncateOversized(messages: readonly WireMessage[], excessTokens: number, calibration: number): { messages: WireMessage[]; truncations: Truncation[] } {
  const out = [...messages];
  const truncations: Truncation[] = [];
  let remaining = excessTokens;
  const candidates = out
    .map((message, index) => ({ index, tokens: typeof message.content === 'string' ? estimateTextTokens(message.content) * calibration : 0 }))
    .filter((c) => c.tokens >= MIN_TRUNCATABLE_TOKENS)
    .sort((a, b) => b.tokens - a.tokens || a.index - b.index);
  for (const candidate of candidates) {
    if (remaining <= 0) break;
    const message = out[candidate.index];
    const text = message.content as string;
    const keepRatio = Math.max(0, (candidate.tokens - remaining - 64) / candidate.tokens);
    const keepChars = Math.floor(text.length * keepRatio);
    const headChars = Math.ceil(keepChars * 0.7);
    const tailChars = keepChars - headChars;
    const truncated = text.slice(0, headChars) + truncationMarker(text.length - keepChars) + (tailChars > 0 ? text.slice(-tailChars) : '');
    out[candidate.index] = { ...message, content: truncated } as WireMessage;
    const toTokens = Math.ceil(estimateTextTokens(truncated) * calibration);
    truncations.push({ index: candidate.index, role: message.role, fromTokens: Math.ceil(candidate.tokens), toTokens });
    remaining -= candidate.tokens - toTokens;
  }
  return { messages: out, truncations };
}
