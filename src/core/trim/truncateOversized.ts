/**
 * The last resort when even the smallest safe history does not fit: a pasted log, a huge tool output, or
 * newest rounds of an agent turn that alone exceed the budget. Rather than send a request the endpoint will
 * reject, kept messages lose the middle of their text to a marker that says how much was cut.
 *
 * Passes, all deterministic and none modifying the originals:
 *  1. Cache-stable, for old messages (everything before the newest unit, head excluded): each is cut to a
 *     fixed ~384 estimator tokens that depends on the message alone — never on calibration, the budget or
 *     the rest of the request. Messages cut this way on an earlier request of the conversation
 *     (`stableThrough`) are cut again first, so they are sent byte-identical on every later request.
 *     Then more old messages, oldest first, until the request fits.
 *  2. Exact: the newest unit (often the only message: a paste larger than the budget) keeps as much as the
 *     budget allows — cut by just what is still missing; other messages, then the head, only after it.
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { WireMessage } from '../wire/wireTypes';

export interface Truncation {
  /** Position in the sent messages. */
  index: number;
  role: WireMessage['role'];
  fromTokens: number;
  toTokens: number;
  stable: boolean;
}

/** What must be freed: calibrated tokens and wire bytes. */
export interface Excess {
  tokens: number;
  bytes: number;
}

export interface TruncationScope {
  /** Leading sent messages (system prompt, anchor): cut last, and only exactly. */
  headCount: number;
  /** Sent messages from this position on are the newest unit: never cut to the fixed size. */
  newestFrom: number;
  /** Old messages before this sent position must get the stable cut whatever the excess (sticky). */
  stickyBefore: number;
}

/** Pass 1 keeps this many estimator tokens of each message: the start and end of a log or a tool result. */
export const STABLE_KEEP_TOKENS = 384;
/** Messages under this many estimator tokens are never cut to the fixed size: it would free too little. */
const MIN_STABLE_TOKENS = STABLE_KEEP_TOKENS * 2;
/** Messages under this many tokens are never cut exactly either. */
const MIN_EXACT_TOKENS = 256;
/** Room for the marker and rounding, so one exact cut is enough. */
const SLACK_TOKENS = 64;
const SLACK_BYTES = 256;

export function truncationMarker(removedChars: number): string {
  return `\n\n[… ${removedChars} characters removed by the OpenCode extension to fit the model's context window …]\n\n`;
}

/** The middle of `text` replaced by the marker, keeping `keepChars` (70% from the start, 30% from the end). */
export function cutText(text: string, keepChars: number): string {
  const keep = Math.max(0, Math.min(text.length, Math.floor(keepChars)));
  const headChars = Math.ceil(keep * 0.7);
  const tailChars = keep - headChars;
  return text.slice(0, headChars) + truncationMarker(text.length - keep) + (tailChars > 0 ? text.slice(-tailChars) : '');
}

/** The cache-stable form of a text: a function of the text alone. Undefined when it is too small to cut. */
export function stableCut(text: string): string | undefined {
  const raw = estimateTextTokens(text);
  if (raw < MIN_STABLE_TOKENS) return undefined;
  return cutText(text, (text.length * STABLE_KEEP_TOKENS) / raw);
}

export function truncateOversized(messages: readonly WireMessage[], excess: Excess, calibration: number, scope: TruncationScope): { messages: WireMessage[]; truncations: Truncation[] } {
  const out = [...messages];
  const cut = new Map<number, Truncation>();
  const remaining = { ...excess };
  const size = (text: string): { tokens: number; bytes: number } => ({ tokens: Math.ceil(estimateTextTokens(text) * calibration), bytes: Buffer.byteLength(text) });
  const replace = (index: number, text: string, stable: boolean): void => {
    const original = messages[index];
    const from = size(original.content as string);
    const before = size(out[index].content as string);
    const after = size(text);
    out[index] = { ...original, content: text } as WireMessage;
    remaining.tokens -= before.tokens - after.tokens;
    remaining.bytes -= before.bytes - after.bytes;
    cut.set(index, { index, role: original.role, fromTokens: from.tokens, toTokens: after.tokens, stable });
  };
  const done = (): boolean => remaining.tokens <= 0 && remaining.bytes <= 0;
  const textAt = (i: number): string | undefined => (typeof messages[i].content === 'string' ? (messages[i].content as string) : undefined);

  const old: number[] = [];
  for (let i = scope.headCount; i < Math.min(scope.newestFrom, messages.length); i++) old.push(i);
  for (const i of old) {
    if (i >= scope.stickyBefore && done()) break;
    const text = textAt(i);
    const short = text === undefined ? undefined : stableCut(text);
    if (short !== undefined) replace(i, short, true);
  }
  for (const i of exactOrder(messages, scope, (j) => cut.has(j))) {
    if (done()) break;
    // Messages already given the stable form are not in this pass, so out[i] is still the original.
    const original = textAt(i) as string;
    const now = size(original);
    const keepShare = Math.min((now.tokens - Math.max(0, remaining.tokens) - SLACK_TOKENS) / now.tokens, (now.bytes - Math.max(0, remaining.bytes) - SLACK_BYTES) / now.bytes);
    replace(i, cutText(original, Math.max(0, keepShare) * original.length), false);
  }
  return { messages: out, truncations: [...cut.values()].sort((a, b) => a.index - b.index) };
}

/** Exact pass order: the newest unit first (it keeps as much as fits), then the largest other messages, head last. */
function exactOrder(messages: readonly WireMessage[], scope: TruncationScope, alreadyStable: (i: number) => boolean): number[] {
  const eligible: number[] = [];
  messages.forEach((message, i) => {
    if (typeof message.content === 'string' && !alreadyStable(i) && estimateTextTokens(message.content) >= MIN_EXACT_TOKENS) eligible.push(i);
  });
  const rank = (i: number): number => (i >= scope.newestFrom ? 0 : i >= scope.headCount ? 1 : 2);
  const tokens = (i: number): number => estimateTextTokens(messages[i].content as string);
  return eligible.sort((a, b) => rank(a) - rank(b) || tokens(b) - tokens(a) || a - b);
}
