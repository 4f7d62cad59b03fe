/**
 * The last resort when even the smallest safe history does not fit: one message (a pasted log, a huge tool
 * output) is larger than the whole budget. Rather than send a request the endpoint will reject, the largest
 * kept messages lose the middle of their text, replaced by a marker that says how much was cut. The current
 * turn and history go first; the head (system prompt and the anchor task) only when nothing else is left.
 * The result is deterministic (same input, same cut), the originals are not modified, and the caller logs it.
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { WireMessage } from '../wire/wireTypes';

export interface Truncation {
  index: number;
  role: WireMessage['role'];
  fromTokens: number;
  toTokens: number;
}

/** What must be freed: calibrated tokens and wire bytes. */
export interface Excess {
  tokens: number;
  bytes: number;
}

/** Messages shorter than this are never worth truncating: they cannot free enough. */
const MIN_TRUNCATABLE_TOKENS = 512;
/** Room for the marker and rounding, so one pass is enough. */
const SLACK_TOKENS = 64;
const SLACK_BYTES = 256;

export function truncationMarker(removedChars: number): string {
  return `\n\n[… ${removedChars} characters removed by the OpenCode extension to fit the model's context window …]\n\n`;
}

/**
 * Shrinks the largest string contents until the excess is freed. `headCount` leading messages (system
 * prompt, anchor) are truncated last. `calibration` converts estimator units to the endpoint's tokens.
 */
export function truncateOversized(messages: readonly WireMessage[], excess: Excess, calibration: number, headCount: number): { messages: WireMessage[]; truncations: Truncation[] } {
  const out = [...messages];
  const truncations: Truncation[] = [];
  const remaining = { ...excess };
  for (const candidate of candidatesInOrder(out, calibration, headCount)) {
    if (remaining.tokens <= 0 && remaining.bytes <= 0) break;
    const message = out[candidate.index];
    const text = message.content as string;
    const bytes = Buffer.byteLength(text);
    // Cutting a share of the text frees about that share of its tokens and of its bytes.
    const share = Math.min(1, Math.max((remaining.tokens + SLACK_TOKENS) / candidate.tokens, (remaining.bytes + SLACK_BYTES) / bytes, 0));
    const keepChars = Math.floor(text.length * (1 - share));
    const headChars = Math.ceil(keepChars * 0.7);
    const tailChars = keepChars - headChars;
    const truncated = text.slice(0, headChars) + truncationMarker(text.length - keepChars) + (tailChars > 0 ? text.slice(-tailChars) : '');
    out[candidate.index] = { ...message, content: truncated } as WireMessage;
    const toTokens = Math.ceil(estimateTextTokens(truncated) * calibration);
    truncations.push({ index: candidate.index, role: message.role, fromTokens: Math.ceil(candidate.tokens), toTokens });
    remaining.tokens -= candidate.tokens - toTokens;
    remaining.bytes -= bytes - Buffer.byteLength(truncated);
  }
  return { messages: out, truncations };
}

function candidatesInOrder(messages: readonly WireMessage[], calibration: number, headCount: number): { index: number; tokens: number }[] {
  return messages
    .map((message, index) => ({ index, head: index < headCount, tokens: typeof message.content === 'string' ? estimateTextTokens(message.content) * calibration : 0 }))
    .filter((c) => c.tokens >= MIN_TRUNCATABLE_TOKENS)
    .sort((a, b) => Number(a.head) - Number(b.head) || b.tokens - a.tokens || a.index - b.index);
}
