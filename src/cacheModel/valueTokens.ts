/**
 * Tokens of a JSON value as the cache model counts them: o200k of its JSON (through the one lazy tokenizer
 * loader in core/tokens), with inline images at a fixed price.
 */
import { countTokensUnmemoized } from '../core/tokens/tokenCounter';

/** Exact o200k count of a text; special-token markers in it count as plain text, as real providers do. */
export const countTextTokens = countTokensUnmemoized;

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
