/**
 * One image made to fit a model's limits (imageLimits.ts), decided from the image's own bytes and the limits
 * alone, so the same image always becomes the same bytes (the cached prefix depends on it):
 * - within the limits: sent unchanged;
 * - otherwise: decoded, scaled down to the long side, and encoded as PNG and (if opaque) JPEG; the smaller
 *   is kept, and scaled down further, a fixed step at a time, until it is within the byte limit;
 * - a format we cannot decode (GIF, WebP, anything unknown) or a decoding error: sent unchanged, with the
 *   reason, so the caller can say so (the provider may still refuse it).
 */
import { base64Length, type ImageLimits } from './imageLimits';
import { decodeImage, encodeJpeg, encodePng, isOpaque, type DecodableMime } from './imageCodec';
import { imageSize, sniffMime } from './imageSize';
import { resizePixels, type Pixels } from './resizePixels';

export interface SentImage {
  mimeType: string;
  data: Uint8Array;
}

export interface FittedImage extends SentImage {
  /** What was done: nothing, resized/re-encoded, or left as it was because it could not be. */
  outcome: 'unchanged' | 'fitted' | 'unfit';
  /** Why an image was left unfit. */
  reason?: string;
}

const JPEG_QUALITY = 85;
/** Each further step shrinks both sides to this share; a few steps reach any byte limit worth having. */
const SHRINK_STEP = 0.75;
const MAX_STEPS = 8;

export function fitImage(image: SentImage, limits: ImageLimits): FittedImage {
  const size = imageSize(image.data);
  const fits = (bytes: number) => base64Length(bytes) <= limits.maxBytes;
  if (size && Math.max(size.width, size.height) <= limits.maxLongSide && fits(image.data.byteLength)) return { ...image, outcome: 'unchanged' };
  const mime = sniffMime(image.data);
  if (mime !== 'image/png' && mime !== 'image/jpeg') return { ...image, outcome: 'unfit', reason: mime ? `${mime} is not decoded` : 'not a PNG, JPEG, GIF or WebP image' };
  let pixels: Pixels;
  try {
    pixels = decodeImage(image.data, mime);
  } catch (error) {
    return { ...image, outcome: 'unfit', reason: `it could not be decoded (${error instanceof Error ? error.message : String(error)})` };
  }
  return shrinkToFit(pixels, limits, mime);
}

function shrinkToFit(pixels: Pixels, limits: ImageLimits, sourceMime: DecodableMime): FittedImage {
  const opaque = isOpaque(pixels);
  let scale = Math.min(1, limits.maxLongSide / Math.max(pixels.width, pixels.height));
  let best: SentImage | undefined;
  for (let step = 0; step < MAX_STEPS; step++) {
    const width = Math.max(1, Math.floor(pixels.width * scale));
    const height = Math.max(1, Math.floor(pixels.height * scale));
    best = smallestEncoding(resizePixels(pixels, width, height), opaque, sourceMime);
    if (base64Length(best.data.byteLength) <= limits.maxBytes) return { ...best, outcome: 'fitted' };
    scale *= SHRINK_STEP;
  }
  return { ...(best as SentImage), outcome: 'unfit', reason: `it is still over ${limits.maxBytes} bytes after ${MAX_STEPS} steps` };
}

/** PNG for any image, JPEG too when there is no transparency; the smaller wins (a tie keeps the source's format). */
function smallestEncoding(pixels: Pixels, opaque: boolean, sourceMime: DecodableMime): SentImage {
  const png: SentImage = { mimeType: 'image/png', data: encodePng(pixels, opaque) };
  if (!opaque) return png;
  const jpg: SentImage = { mimeType: 'image/jpeg', data: encodeJpeg(pixels, JPEG_QUALITY) };
  if (jpg.data.byteLength === png.data.byteLength) return sourceMime === 'image/png' ? png : jpg;
  return jpg.data.byteLength < png.data.byteLength ? jpg : png;
}
