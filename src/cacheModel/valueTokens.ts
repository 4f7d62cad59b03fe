/**
 * Tokens of a prompt block as the cache model counts them: a message as a chat template renders it, anything
 * else as its JSON (o200k through the one lazy tokenizer loader in core/tokens), inline images at a fixed price.
 */
import { IMAGE_TOKEN_COST } from '../core/tokens/messageTokens';
import { countTokensUnmemoized } from '../core/tokens/tokenCounter';
import { isRecord } from '../core/util/jsonFields';

/** Exact o200k count of a text; special-token markers in it count as plain text, as real providers do. */
export const countTextTokens = countTokensUnmemoized;

/**
 * What one inline image costs, whatever its size (real providers bill images by tiles, not base64 length):
 * the estimator's price, so the fake server and the trim agree on images.
 */
export const TOKENS_PER_IMAGE = IMAGE_TOKEN_COST;

const IMAGE_PLACEHOLDER = '[image]';

function isInlineImage(value: string): boolean {
  return value.startsWith('data:') && value.includes(';base64,');
}

/** An image block of any route (its base64 is not a data URL on Messages and Gemini): priced as an image, never tokenized. */
function isImageBlock(value: unknown): boolean {
  return isRecord(value) && (value.type === 'image' || value.type === 'image_url' || value.type === 'input_image' || isRecord(value.inlineData));
}

/** JSON of `value` with every inline (data URL) image replaced by a short placeholder, and how many there were. */
export function serializeWithoutImages(value: unknown): { json: string; imageCount: number } {
  let imageCount = 0;
  const json = JSON.stringify(value, (_key, field: unknown) => {
    if ((typeof field === 'string' && isInlineImage(field)) || isImageBlock(field)) {
      imageCount++;
      return IMAGE_PLACEHOLDER;
    }
    return field;
  });
  return { json: json ?? '', imageCount };
}

/** Keys a chat template turns into fixed markers (or drops), not into tokenized text. */
const STRUCTURAL_KEYS = new Set(['role', 'type', 'id', 'tool_call_id', 'tool_use_id', 'media_type', 'cache_control', 'signature', 'detail']);
/** Markers a template puts around each tool call (begin/end, separators). */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;

/**
 * Tokens of a block as a chat template renders it. A message (a record with a `role`) counts its text —
 * content, tool-call names and arguments, reasoning — plus a few markers per tool call, and a fixed price
 * per image; its JSON keys, quotes and escapes are not sent to the model, so they are not counted (the
 * per-message overhead is the cache model's). Anything else (the tools block) counts as its JSON, which is
 * how templates render tool schemas.
 */
export function countValueTokens(value: unknown): number {
  if (isRecord(value) && typeof value.role === 'string') return templateTokens(value);
  const { json, imageCount } = serializeWithoutImages(value);
  return countTextTokens(json) + imageCount * TOKENS_PER_IMAGE;
}

function templateTokens(value: unknown): number {
  if (typeof value === 'string') return isInlineImage(value) ? TOKENS_PER_IMAGE : countTextTokens(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + templateTokens(item), 0);
  if (!isRecord(value)) return 0;
  if (isImageBlock(value)) return TOKENS_PER_IMAGE;
  let tokens = isRecord(value.function) ? TOOL_CALL_OVERHEAD_TOKENS : value.type === 'tool_use' ? TOOL_CALL_OVERHEAD_TOKENS : 0;
  for (const [key, field] of Object.entries(value)) {
    if (STRUCTURAL_KEYS.has(key)) continue;
    // An Anthropic tool_use input is an object; the template writes it as JSON, like OpenAI arguments.
    tokens += key === 'input' && isRecord(field) ? countTextTokens(JSON.stringify(field)) : templateTokens(field);
  }
  return tokens;
}
