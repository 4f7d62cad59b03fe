/**
 * The exact o200k_base count. This is the only module that imports gpt-tokenizer: its rank tables take
 * ~230 ms to load, so tokenCounter requires this file lazily (the bundle ships it as dist/tokenizer.js).
 */
// The `cjs/` subpath with `import = require` is the one spelling that both tsc (node10 resolution, which
// cannot see the package's `exports` types) and esbuild (which needs the "require" condition) resolve.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import o200k = require('gpt-tokenizer/cjs/encoding/o200k_base');

// Text such as "<|endoftext|>" inside a user's file is plain text to us; by default gpt-tokenizer throws on it.
const TREAT_SPECIAL_TOKENS_AS_TEXT = { disallowedSpecial: new Set<string>() };

export function countTextTokens(text: string): number {
  return o200k.countTokens(text, TREAT_SPECIAL_TOKENS_AS_TEXT);
}
