/**
 * o200k token counting for the fake server. The tokenizer's rank table is large, so it is loaded on first
 * use rather than at import time.
 */

type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;

let countTokensImpl: CountTokens | undefined;

function tokenizer(): CountTokens {
  if (!countTokensImpl) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load
    countTokensImpl = (require('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }).countTokens;
  }
  return countTokensImpl;
}

// Client text may contain strings like "<|endoftext|>"; real providers count them as plain text, and the
// tokenizer would otherwise throw on them.
const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : tokenizer()(text, NO_SPECIAL_TOKENS);
}

/** What one inline image costs, whatever its size; real providers bill images by tiles, not base64 length. */
export const TOKENS_PER_IMAGE = 800;

const IMAGE_PLACEHOLDER = '[image]';

function isInlineImage(value: string): boolean {
  return value.startsWith('data:') && value.includes(';base64,');
}

/** JSON of `value` with every inline (data URL) image replaced by a short placeholder, and how many there were. */
export function serializeWithoutImages(value: unknown): { json: string; imageCount: number } {
  let imageCount = 0;
  const json = JSON.stringify(value, (_key, field: unknown) => {
    if (typeof field === 'string' && isInlineImage(field)) {
      imageCount++;
      return IMAGE_PLACEHOLDER;
    }
    return field;
  });
  return { json: json ?? '', imageCount };
}

/** Tokens of a JSON-able value: its text without images, plus a fixed price per image. */
export function countValueTokens(value: unknown): number {
  const { json, imageCount } = serializeWithoutImages(value);
  return countTextTokens(json) + imageCount * TOKENS_PER_IMAGE;
}
