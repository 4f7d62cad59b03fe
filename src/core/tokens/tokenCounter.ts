/**
 * Exact o200k token counts for VS Code's provideTokenCount and for anything that must not guess.
 * The tokenizer loads on first use (its rank tables cost ~230 ms), and counts of long strings are memoized
 * because VS Code asks again and again for the same messages while it lays out a prompt.
 */
import { createHash } from 'crypto';
import type { ChatMessage, ChatPart, ChatTool } from '../types';
import { BoundedMap } from '../util/boundedMap';

/**
 * OpenAI's price of one high-detail 1024×1024 image (85 base + 4 tiles × 170). We do not decode image sizes
 * here; a screenshot downscaled to about that size is the common case, and Anthropic's (w·h)/750 rule gives
 * the same order (~1,400) for it.
 */
export const IMAGE_TOKEN_COST = 765;
/** Chat formatting wraps every message in role and separator tokens (<|start|>role<|message|>…<|end|>). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Each tool definition is wrapped in a function/type/parameters scaffold around its name, text and schema. */
export const TOOL_OVERHEAD_TOKENS = 8;

declare const __OPENCODE_BUNDLE__: boolean | undefined;
function loadTokenizer(): { countTextTokens(t: string): number } {
  // In the esbuild bundle the tokenizer is a separate file beside extension.js, loaded on first use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy require is the point here
  return typeof __OPENCODE_BUNDLE__ !== 'undefined' && __OPENCODE_BUNDLE__ ? require('./tokenizer.js') : require('./o200k');
}

let tokenizer: { countTextTokens(t: string): number } | undefined;

/**
 * The exact o200k count without the memo: the one lazy tokenizer loader of the code base (the fake server's
 * cache model and the benchmark count through it too).
 */
export function countTokensUnmemoized(text: string): number {
  if (text.length === 0) return 0;
  tokenizer ??= loadTokenizer();
  return tokenizer.countTextTokens(text);
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

/** For tests and for a settings change that should not reuse old numbers. */
export function clearTokenCountMemo(): void {
  countsByText.clear();
  countsByDigest.clear();
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value); // cyclic or BigInt input: still count something proportional
  }
}

/** Tokens of one part, measuring its text with `countText` (exact or estimated). */
export function partTokens(part: ChatPart, countText: (text: string) => number): number {
  switch (part.kind) {
    case 'text':
    case 'toolResult':
    case 'thinking':
      return countText(part.text);
    case 'toolCall':
      return countText(part.name) + countText(jsonOf(part.input));
    case 'image':
      return IMAGE_TOKEN_COST;
    case 'ignored':
      return 0;
  }
}

/** The per-message rule shared by the exact counter and the estimator: parts + name + fixed overhead. */
export function sumMessageTokens(message: ChatMessage, countText: (text: string) => number): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  if (message.name) total += countText(message.name);
  for (const part of message.parts) total += partTokens(part, countText);
  return total;
}

export function countMessageTokens(message: ChatMessage): number {
  return sumMessageTokens(message, countTokens);
}

export function countToolsTokens(tools: readonly ChatTool[]): number {
  let total = 0;
  for (const tool of tools) {
    total += TOOL_OVERHEAD_TOKENS + countTokens(tool.name) + countTokens(tool.description);
    total += countTokens(jsonOf(tool.inputSchema ?? {}));
  }
  return total;
}
