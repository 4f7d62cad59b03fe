/**
 * Exact o200k token counts for VS Code's provideTokenCount and for anything that must not guess.
 * The tokenizer loads on first use (its rank tables cost ~230 ms), and counts of long strings are memoized
 * because VS Code asks again and again for the same messages while it lays out a prompt. Bounded work on any text
 * (boundedTokenCount, below).
 */
import { createHash } from 'crypto';
import type { ChatMessage } from '../types';
import { BoundedMap } from '../util/boundedMap';
import { estimateTextTokens } from './estimate';
import { chatMessagePieces, messageTokens } from './messageTokens';

declare const __OPENCODE_BUNDLE__: boolean | undefined;
function loadTokenizer(): { countTextTokens(t: string): number } {
  // In the esbuild bundle the tokenizer is a separate file beside extension.js, loaded on first use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require is the point here
  return typeof __OPENCODE_BUNDLE__ !== 'undefined' && __OPENCODE_BUNDLE__ ? require('./tokenizer.js') : require('./o200k');
}

let tokenizer: { countTextTokens(t: string): number } | undefined;

/**
 * The o200k count without the memo: the one lazy tokenizer loader of the code base (the fake server's cache
 * model, the replay tool and the benchmark count through it too). Exact on ordinary text, bounded work on any
 * text (boundedTokenCount): the encoder is never handed a pre-token it would take seconds over.
 */
export function countTokensUnmemoized(text: string): number {
  if (text.length === 0) return 0;
  const loaded = (tokenizer ??= loadTokenizer());
  return boundedTokenCount(text, (piece) => loaded.countTextTokens(piece));
}

/** Shorter strings tokenize in microseconds; caching them would only push useful entries out. */
const MEMO_MIN_LENGTH = 256;
/**
 * Below this length the string itself is the key. Above it the key is its SHA-1: hashing runs at hundreds of
 * MB/s against ~3.5 MB/s for tokenizing, and the cache then does not keep megabytes of old history alive.
 * The two kinds live in separate maps so a text can never collide with a digest.
 */
const MEMO_KEY_BY_TEXT_MAX_LENGTH = 4096;
const countsByText = new BoundedMap<string, number>(2000);
const countsByDigest = new BoundedMap<string, number>(2000);

function digestOf(text: string): string {
  // UTF-8 hashes ~4× faster than UTF-16 here. It maps every lone surrogate to U+FFFD, so texts that differ
  // only in those would share a count: harmless for a count, and vanishingly rare.
  return createHash('sha1').update(text).digest('base64') + text.length;
}

/** Exact o200k token count of `text` (special-token markers in it count as plain text). */
export function countTokens(text: string): number {
  if (text.length < MEMO_MIN_LENGTH) return countTokensUnmemoized(text);
  const byText = text.length <= MEMO_KEY_BY_TEXT_MAX_LENGTH;
  const memo = byText ? countsByText : countsByDigest;
  const key = byText ? text : digestOf(text);
  let count = memo.get(key);
  if (count === undefined) {
    count = countTokensUnmemoized(text);
    memo.set(key, count);
  }
  return count;
}

export function countMessageTokens(message: ChatMessage): number {
  return messageTokens(chatMessagePieces(message), countTokens);
}

/*
 * The exact o200k count in bounded work, whatever the text. gpt-tokenizer's BPE is quadratic in the length of one
 * pre-token (160K of one letter: 30 s; an 80,000-character DNA line: 8 s) and costs ~10× ordinary text on
 * random-looking text (base64, DNA, hashes: every pre-token misses its merge cache). So:
 *
 *  - The text is cut into pieces of at most MAX_PIECE_CHARS, at pre-token boundaries where there is one (after a
 *    line break, before a space that starts a word, around digits, before a symbol: atBoundary): the encoder
 *    never sees a longer pre-token. Cut there, a
 *    piece tokenizes exactly as it does inside the text, so ordinary text keeps its exact count; only a run with
 *    no boundary for MAX_PIECE_CHARS (one letter repeated, a DNA line, base64) is cut hard, costing at most a
 *    token or so per cut.
 *  - A piece that looks random (fewer than HEAVY_BYTES_PER_TOKEN UTF-8 bytes per estimated token, or following a
 *    chunk the estimator under-counted by more than SUSPICIOUS_RATIO) is counted exactly only one time in
 *    SAMPLE_EVERY; the others are the estimator's count (estimate.ts) scaled by the exact/estimated ratio of the
 *    samples so far. Everything else is counted exactly, in chunks.
 *
 * Work: at most MAX_PIECE_CHARS per pre-token, and about 1/SAMPLE_EVERY of random-looking text, through the exact
 * encoder (npm run bench: "token count, pathological text"). Deterministic: the same text, the same count.
 */

/** No pre-token longer than this reaches the exact encoder. */
export const MAX_PIECE_CHARS = 256;
/**
 * Below this many UTF-8 bytes per estimated token a piece is random-looking (DNA and random letters 2.0, base64
 * ~1.5; ordinary code and prose 3.5–5, JSON full of hashes ~2.4, Chinese ~4.8: bytes, not characters, so CJK text
 * stays exact).
 */
export const HEAVY_BYTES_PER_TOKEN = 2.5;
/** Random-looking pieces: one in this many is counted exactly, the rest scaled from it. */
export const SAMPLE_EVERY = 16;
/** …after the first this many characters of them, all counted exactly (a short text gets a steady ratio). */
export const MIN_SAMPLED_CHARS = 2_048;
/** Ordinary pieces go to the encoder in chunks of about this size (fewer calls, same count). */
const CHUNK_CHARS = 4 * 1024;
/**
 * Exact ÷ estimated above this on the last chunk: the text only looks ordinary (random words, each a new BPE
 * case), so it is sampled like random text until a sample shows ordinary text again. Ordinary text: 0.9–1.1.
 */
const SUSPICIOUS_RATIO = 1.5;

export function boundedTokenCount(text: string, exact: (piece: string) => number): number {
  if (text.length <= MAX_PIECE_CHARS) return exact(text);
  let total = 0;
  let chunkStart = 0;
  let chunkEnd = 0;
  let chunkEstimate = 0;
  let heavySeen = 0;
  /** Exact ÷ estimated on the last exact count (chunk or sample): flags text the estimator under-counts. */
  let ratio = 1;
  // Samples of random-looking pieces so far: their ratio scales the pieces not sampled.
  let sampledExact = 0;
  let sampledEstimate = 0;
  let sampledChars = 0;
  const flush = (): void => {
    if (chunkEnd > chunkStart) {
      const counted = exact(text.slice(chunkStart, chunkEnd));
      ratio = chunkEstimate > 0 ? counted / chunkEstimate : 1;
      total += counted;
    }
    chunkStart = chunkEnd;
    chunkEstimate = 0;
  };
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start);
    const piece = text.slice(start, end);
    const estimated = estimateTextTokens(piece);
    // Random-looking by its characters, or text the estimator was just seen to under-count by far (random words).
    if (Buffer.byteLength(piece) < HEAVY_BYTES_PER_TOKEN * estimated || ratio > SUSPICIOUS_RATIO) {
      flush();
      if (heavySeen++ % SAMPLE_EVERY === 0 || sampledChars < MIN_SAMPLED_CHARS) {
        sampledChars += piece.length;
        const counted = exact(piece);
        ratio = estimated > 0 ? counted / estimated : 1;
        sampledExact += counted;
        sampledEstimate += estimated;
        total += counted;
      } else total += Math.round(estimated * (sampledEstimate > 0 ? sampledExact / sampledEstimate : 1));
      chunkStart = chunkEnd = end;
    } else {
      heavySeen = 0;
      chunkEnd = end;
      chunkEstimate += estimated;
      // A piece cut hard (no boundary) ends its chunk: joined to the next piece it would be one pre-token again.
      if (end - chunkStart >= CHUNK_CHARS || !atBoundary(text, end)) flush();
    }
    start = end;
  }
  flush();
  return total;
}

const isBreak = (c: number): boolean => c === 10 || c === 13;
const isSpace = (c: number): boolean => c === 32 || c === 9 || isBreak(c) || c === 11 || c === 12 || c === 0xa0;

/**
 * Where the piece that starts at `start` ends: the text's end, else the last pre-token boundary within
 * MAX_PIECE_CHARS, else MAX_PIECE_CHARS on (never inside a surrogate pair).
 */
export function pieceEnd(text: string, start: number): number {
  const limit = start + MAX_PIECE_CHARS;
  if (limit >= text.length) return text.length;
  for (let i = limit; i > start; i--) if (atBoundary(text, i)) return i;
  const high = text.charCodeAt(limit - 1);
  return high >= 0xd800 && high < 0xdc00 ? limit - 1 : limit;
}

/**
 * A position o200k's pre-tokenizer always splits at (so a piece ending there tokenizes as inside the text):
 *  - right after a run of line breaks that a non-space follows (`\s*[\r\n]+` ends there; not before "/", which
 *    a symbol run's trailing breaks take);
 *  - before a single space between two non-spaces (the space starts the next pre-token);
 *  - at either edge of a run of ASCII digits (digits form pre-tokens of their own, grouped from the run's start);
 *  - between an ASCII letter and an ASCII symbol other than the apostrophe (contractions: "don't" is one), and
 *    between a CJK character and CJK or fullwidth punctuation (a letter run ends at a symbol).
 */
export function atBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const before = text.charCodeAt(i - 1);
  const at = text.charCodeAt(i);
  if (isBreak(before)) return !isSpace(at) && at !== 47;
  if (at === 32) return !isSpace(before) && i + 1 < text.length && !isSpace(text.charCodeAt(i + 1));
  if (isDigit(at) !== isDigit(before)) return !isSpace(at) && !isSpace(before);
  if (isAsciiLetter(before)) return at < 128 && at !== 39 && !isDigit(at) && !isAsciiLetter(at) && !isSpace(at);
  return isCjk(before) && isCjkPunct(at);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isCjk = (c: number): boolean => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3040 && c <= 0x30ff);
const isCjkPunct = (c: number): boolean => (c >= 0x3000 && c <= 0x3003) || (c >= 0x3008 && c <= 0x3011) || (c >= 0xff01 && c <= 0xff0f) || (c >= 0xff1a && c <= 0xff20);
