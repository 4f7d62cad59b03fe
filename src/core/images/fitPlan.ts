/**
 * The header half of fitting an image to a model's limits (imageLimits.ts); the decoding half is fitImage.ts, run
 * in the image worker. Decided from the image's own bytes and the limits alone, so the same image always becomes
 * the same bytes, whichever thread runs it (the cached prefix depends on it). From the header alone (planFit,
 * cheap, on the extension host):
 * - no size in the header: sent unchanged, with the reason (nothing is decoded without a known size);
 * - over MAX_MEGAPIXELS (a decompression bomb: 20000×20000 in 49 KB): refused, never decoded; the caller sends a
 *   note in its place (fitImages.ts);
 * - within the limits and upright: sent unchanged;
 * - GIF, WebP (not decoded): sent unchanged, with the reason (the provider may still refuse it);
 * - otherwise: what the worker must decode (the format and the EXIF orientation).
 */
import type { DecodableMime } from './imageCodec';
import { jpegOrientation, type Orientation } from './exifOrientation';
import { base64Length, MAX_MEGAPIXELS, type ImageLimits } from './imageLimits';
import { imageSize, sniffMime } from './imageSize';

export interface SentImage {
  mimeType: string;
  data: Uint8Array;
}

export interface FittedImage extends SentImage {
  /**
   * What was done: nothing, resized/re-encoded, left as it was because it could not be, or refused (too many
   * pixels to decode: the caller sends a note instead of the image).
   */
  outcome: 'unchanged' | 'fitted' | 'unfit' | 'refused';
  /** Why an image was left unfit or refused. */
  reason?: string;
  /** A passing condition (a full queue), not the image: the memo does not keep it, the next request tries again. */
  transient?: boolean;
}

/** What the header decided, or what decoding has to do. */
export type FitPlan = { done: FittedImage } | { decode: DecodableMime; orientation: Orientation };

/** The decision the header alone allows: no decoding, cost independent of the pixels. */
export function planFit(image: SentImage, limits: ImageLimits): FitPlan {
  const mime = sniffMime(image.data);
  const size = imageSize(image.data);
  if (!size) return { done: { ...image, outcome: 'unfit', reason: mime ? `its ${mime} header gives no size` : 'not a PNG, JPEG, GIF or WebP image' } };
  if (size.width * size.height > MAX_MEGAPIXELS * 1_000_000) {
    return { done: { ...image, outcome: 'refused', reason: `${size.width}×${size.height} pixels is over the ${MAX_MEGAPIXELS}-megapixel bound` } };
  }
  const orientation = mime === 'image/jpeg' ? jpegOrientation(image.data) : 1;
  const within = Math.max(size.width, size.height) <= limits.maxLongSide && base64Length(image.data.byteLength) <= limits.maxBytes;
  if (within && orientation === 1) return { done: { ...image, outcome: 'unchanged' } };
  if (mime !== 'image/png' && mime !== 'image/jpeg') return { done: { ...image, outcome: 'unfit', reason: `${mime} is not decoded` } };
  return { decode: mime, orientation };
}
