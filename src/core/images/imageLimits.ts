/**
 * What an image sent to a model may be: its longest side in pixels and its size in bytes as sent (base64, the
 * way every route carries it). The one place that reads these facts, so the model table can feed it later
 * (the catalogue has no image limits yet): everything else asks `imageLimitsFor` (fitImages.ts, which runs per
 * request anyway: one file less on every request).
 */

export interface ImageLimits {
  /** The longest side, in pixels. */
  maxLongSide: number;
  /** The base64 text's length, in bytes (Anthropic counts the 5 MB on the encoded data). */
  maxBytes: number;
}

/** Within what every vision model on OpenCode accepts (Anthropic: 8,000 px and 5 MB; OpenAI scales to 2,048). */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxLongSide: 2_000, maxBytes: 5 * 1024 * 1024 };

/** Pixels one image may have before it is decoded at all (jpeg-js's own default bound; 400 MB as RGBA). */
export const MAX_MEGAPIXELS = 100;

/** Bytes of the base64 text for `rawBytes` bytes of data. */
export function base64Length(rawBytes: number): number {
  return 4 * Math.ceil(rawBytes / 3);
}
