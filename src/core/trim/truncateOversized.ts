/**
 * The last resort when even the smallest safe history does not fit: a pasted log, a huge tool output, or a
 * long agent turn whose tool results alone exceed the budget. Rather than send a request the endpoint will
 * reject, kept messages lose the middle of their text to a marker that says how much was cut.
 *
 * Two passes, both deterministic and neither modifying the originals:
 *  1. Cache-stable: the oldest large messages first (the current turn and history before the head), each cut to
 *     a fixed size that depends only on the message itself. Next turn the same messages are cut the same way,
 *     so the bytes before the newest cut stay identical and the prefix cache survives.
 *  2. Exact: if that was not enough (one message larger than the whole budget), the largest remaining messages
 *     are cut by just what is still missing.
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
/** Pass 1 keeps this much of each message: enough for the start and end of a log or a tool result. */
export const STABLE_KEEP_TOKENS = 384;
/** Room for the marker and rounding, so one exact cut is enough. */
const SLACK_TOKENS = 64;
const SLACK_BYTES = 256;

export function truncationMarker(removedChars: number): string {
  return `\n\n[… ${removedChars} characters removed by the OpenCode extension to fit the model's context window …]\n\n`;
}

interface Candidate {
  index: number;
  head: boolean;
  /** Size of the original message. */
  originalTokens: number;
  originalBytes: number;
  /** Size now (after an earlier pass, if any). */
  tokens: number;
  bytes: number;
}

/**
 * Frees the excess. `headCount` leading messages (system prompt, anchor) are cut last; `calibration`
 * converts estimator units to the endpoint's tokens.
 */
export function truncateOversized(messages: readonly WireMessage[], excess: Excess, calibration: number, headCount: number): { messages: WireMessage[]; truncations: Truncation[] } {
  const out = [...messages];
  const cut = new Map<number, Truncation>();
  const remaining = { ...excess };
  const candidates: Candidate[] = [];
  messages.forEach((message, index) => {
    if (typeof message.content !== 'string') return;
    const tokens = estimateTextTokens(message.content) * calibration;
    const bytes = Buffer.byteLength(message.content);
    if (tokens >= MIN_TRUNCATABLE_TOKENS) candidates.push({ index, head: index < headCount, originalTokens: tokens, originalBytes: bytes, tokens, bytes });
  });
  /** Cuts the original text down to `keepShare` of it (always from the original: no marker inside a marker). */
  const shrink = (candidate: Candidate, keepShare: number): void => {
    const original = messages[candidate.index];
    const text = original.content as string;
    const keepChars = Math.floor(text.length * Math.max(0, Math.min(1, keepShare)));
    const headChars = Math.ceil(keepChars * 0.7);
    const tailChars = keepChars - headChars;
    const truncated = text.slice(0, headChars) + truncationMarker(text.length - keepChars) + (tailChars > 0 ? text.slice(-tailChars) : '');
    out[candidate.index] = { ...original, content: truncated } as WireMessage;
    const tokens = Math.ceil(estimateTextTokens(truncated) * calibration);
    const bytes = Buffer.byteLength(truncated);
    remaining.tokens -= candidate.tokens - tokens;
    remaining.bytes -= candidate.bytes - bytes;
    candidate.tokens = tokens;
    candidate.bytes = bytes;
    cut.set(candidate.index, { index: candidate.index, role: original.role, fromTokens: Math.ceil(candidate.originalTokens), toTokens: tokens });
  };
  const done = (): boolean => remaining.tokens <= 0 && remaining.bytes <= 0;

  const stableOrder = [...candidates].sort((a, b) => Number(a.head) - Number(b.head) || a.index - b.index);
  for (const candidate of stableOrder) {
    if (done()) break;
    if (candidate.originalTokens > STABLE_KEEP_TOKENS * 2) shrink(candidate, STABLE_KEEP_TOKENS / candidate.originalTokens);
  }
  const exactOrder = [...candidates].sort((a, b) => Number(a.head) - Number(b.head) || b.tokens - a.tokens || a.index - b.index);
  for (const candidate of exactOrder) {
    if (done()) break;
    const keepTokens = candidate.tokens - Math.max(0, remaining.tokens) - SLACK_TOKENS;
    const keepBytes = candidate.bytes - Math.max(0, remaining.bytes) - SLACK_BYTES;
    shrink(candidate, Math.min(keepTokens / candidate.originalTokens, keepBytes / candidate.originalBytes));
  }
  return { messages: out, truncations: [...cut.values()].sort((a, b) => a.index - b.index) };
}
