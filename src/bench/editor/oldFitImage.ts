/**
 * The image fit as it was before issue 29, for the bench's side-by-side rows only: everything on the calling
 * thread, the image decoded in full before its size is checked (a PNG's 100-megapixel check came after the
 * decode), no EXIF orientation, the smaller of PNG and JPEG kept even when larger than the image as it came.
 */
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { encodeJpeg, encodePng, isOpaque } from '../../core/images/imageCodec';
import { base64Length, type ImageLimits } from '../../core/images/imageLimits';
import { imageSize, sniffMime } from '../../core/images/imageSize';
import { resizePixels, type Pixels } from '../../core/images/resizePixels';

export function oldFitImage(data: Uint8Array, limits: ImageLimits): { mimeType: string; data: Uint8Array; outcome: string } {
  const size = imageSize(data);
  const mime = sniffMime(data);
  if (size && Math.max(size.width, size.height) <= limits.maxLongSide && base64Length(data.byteLength) <= limits.maxBytes) return { mimeType: mime ?? '?', data, outcome: 'unchanged' };
  if (mime !== 'image/png' && mime !== 'image/jpeg') return { mimeType: mime ?? '?', data, outcome: 'unfit' };
  let pixels: Pixels;
  try {
    pixels = decodeOld(data, mime);
  } catch {
    return { mimeType: mime, data, outcome: 'unfit' };
  }
  const opaque = isOpaque(pixels);
  let scale = Math.min(1, limits.maxLongSide / Math.max(pixels.width, pixels.height));
  let best: { mimeType: string; data: Uint8Array } = { mimeType: mime, data };
  for (let step = 0; step < 8; step++) {
    const small = resizePixels(pixels, Math.max(1, Math.floor(pixels.width * scale)), Math.max(1, Math.floor(pixels.height * scale)));
    const png = { mimeType: 'image/png', data: encodePng(small, opaque) };
    const jpg = opaque ? { mimeType: 'image/jpeg', data: encodeJpeg(small, 85) } : undefined;
    best = jpg && jpg.data.byteLength < png.data.byteLength ? jpg : png;
    if (base64Length(best.data.byteLength) <= limits.maxBytes) return { ...best, outcome: 'fitted' };
    scale *= 0.75;
  }
  return { ...best, outcome: 'unfit' };
}

function decodeOld(bytes: Uint8Array, mime: 'image/png' | 'image/jpeg'): Pixels {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mime === 'image/jpeg') {
    const image = jpeg.decode(buffer, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 100, maxMemoryUsageInMB: 1024 });
    return { width: image.width, height: image.height, data: image.data };
  }
  const image = PNG.sync.read(buffer);
  if (image.width * image.height > 100_000_000) throw new Error('the image has more than 100 megapixels');
  return { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
}
