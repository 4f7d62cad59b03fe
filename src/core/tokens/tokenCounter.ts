/**
 * Exact o200k token counts for VS Code's provideTokenCount and for anything that must not guess.
 * The tokenizer loads on first use (its rank tables cost ~230 ms), and counts of long strings are memoized
 * because VS Code asks again and again for the same messages while it lays out a prompt.
 */
import { createHash } from 'crypto';
import type { ChatMessage } from '../types';
import { BoundedMap } from '../util/boundedMap';
import { boundedTokenCount } from './boundedCount';
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
 * text (boundedCount.ts): the encoder is never handed a pre-token it would take seconds over.
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
