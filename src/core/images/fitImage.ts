/**
 * The decoding half of fitting an image (the header half, planFit, is fitPlan.ts): decoded, turned upright (EXIF
 * orientation), scaled down to the long side, encoded as PNG and (if opaque) JPEG, the smaller kept; a result is
 * taken only when it is within the byte limit and smaller than the image as it came, else both sides shrink a
 * fixed step. Runs in the image worker (imageWorker.ts); the extension's bundle holds none of it.
 */
import { base64Length, type ImageLimits } from './imageLimits';
import { decodeImage, encodeJpeg, encodePng, isOpaque, type DecodableMime } from './imageCodec';
import type { Orientation } from './exifOrientation';
import { orientPixels } from './orientPixels';
import { resizePixels, type Pixels } from './resizePixels';
import { planFit, type FittedImage, type SentImage } from './fitPlan';

export type { FittedImage, SentImage } from './fitPlan';

const JPEG_QUALITY = 85;
/** Each further step shrinks both sides to this share; a few steps reach any byte limit worth having. */
const SHRINK_STEP = 0.75;
const MAX_STEPS = 8;

/** The whole rule on the calling thread (tests and the bench compare the worker with it). */
export function fitImage(image: SentImage, limits: ImageLimits): FittedImage {
  const plan = planFit(image, limits);
  return 'done' in plan ? plan.done : fitDecoded(image, limits, plan);
}

/** Decode, orient, shrink: the part that grows with the pixels (never on the extension host: imageFitter.ts). */
export function fitDecoded(image: SentImage, limits: ImageLimits, plan: { decode: DecodableMime; orientation: Orientation }): FittedImage {
  let pixels: Pixels;
  try {
    pixels = orientPixels(decodeImage(image.data, plan.decode), plan.orientation);
  } catch (error) {
    return { ...image, outcome: 'unfit', reason: `it could not be decoded (${error instanceof Error ? error.message : String(error)})` };
  }
  return shrinkToFit(pixels, limits, image, plan.decode);
}

function shrinkToFit(pixels: Pixels, limits: ImageLimits, original: SentImage, sourceMime: DecodableMime): FittedImage {
  const opaque = isOpaque(pixels);
  const originalWithin = Math.max(pixels.width, pixels.height) <= limits.maxLongSide && base64Length(original.data.byteLength) <= limits.maxBytes;
  let scale = Math.min(1, limits.maxLongSide / Math.max(pixels.width, pixels.height));
  let best: SentImage | undefined;
  for (let step = 0; step < MAX_STEPS; step++) {
    const width = Math.max(1, Math.floor(pixels.width * scale));
    const height = Math.max(1, Math.floor(pixels.height * scale));
    const candidate = smallestEncoding(resizePixels(pixels, width, height), opaque, sourceMime);
    const fits = base64Length(candidate.data.byteLength) <= limits.maxBytes;
    // Never larger than it came: a re-encode that is not smaller takes one more step down.
    if (fits && candidate.data.byteLength < original.data.byteLength) return { ...candidate, outcome: 'fitted' };
    if (fits && (!best || candidate.data.byteLength < best.data.byteLength)) best = candidate;
    scale *= SHRINK_STEP;
  }
  // No step was smaller: the original when it may be sent as it is, else the smallest within the limits.
  if (originalWithin) return { ...original, outcome: 'unchanged' };
  if (best) return { ...best, outcome: 'fitted' };
  return { ...original, outcome: 'unfit', reason: `it is still over ${limits.maxBytes} bytes after ${MAX_STEPS} steps` };
}

/** PNG for any image, JPEG too when there is no transparency; the smaller wins (a tie keeps the source's format). */
function smallestEncoding(pixels: Pixels, opaque: boolean, sourceMime: DecodableMime): SentImage {
  const png: SentImage = { mimeType: 'image/png', data: encodePng(pixels, opaque) };
  if (!opaque) return png;
  const jpg: SentImage = { mimeType: 'image/jpeg', data: encodeJpeg(pixels, JPEG_QUALITY) };
  if (jpg.data.byteLength === png.data.byteLength) return sourceMime === 'image/png' ? png : jpg;
  return jpg.data.byteLength < png.data.byteLength ? jpg : png;
}
