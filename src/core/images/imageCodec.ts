/**
 * Decoding and encoding through two small pure-JS codecs (pngjs, jpeg-js): nothing native, nothing to
 * download, the same bytes out for the same pixels in (pngjs deflates through Node's zlib, whose output is
 * fixed for a given Node build). Only PNG and JPEG are decoded; other formats are sent as they are.
 */
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { MAX_MEGAPIXELS } from './imageLimits';
import { imageSize } from './imageSize';
import type { Pixels } from './resizePixels';


export type DecodableMime = 'image/png' | 'image/jpeg';

/**
 * The header's size is checked before the decoder runs (a 49 KB PNG can declare 20000×20000 pixels, 1.6 GB
 * decoded); jpeg-js has the same bound of its own.
 */
export function decodeImage(bytes: Uint8Array, mime: DecodableMime): Pixels {
  const size = imageSize(bytes);
  if (!size) throw new Error('the header gives no size');
  if (size.width * size.height > MAX_MEGAPIXELS * 1_000_000) throw new Error(`the image has more than ${MAX_MEGAPIXELS} megapixels`);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mime === 'image/jpeg') {
    const image = jpeg.decode(buffer, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_MEGAPIXELS, maxMemoryUsageInMB: 1024 });
    return { width: image.width, height: image.height, data: image.data };
  }
  const image = PNG.sync.read(buffer);
  return { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
}

/** RGB when every pixel is opaque (a quarter smaller), RGBA otherwise; one fixed filter (Paeth), 3× faster than trying all five per row. */
export function encodePng(pixels: Pixels, opaque = isOpaque(pixels)): Uint8Array {
  const png = new PNG({ width: pixels.width, height: pixels.height });
  Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength).copy(png.data);
  return new Uint8Array(PNG.sync.write(png, { colorType: opaque ? 2 : 6, inputColorType: 6, inputHasAlpha: true, filterType: 4 }));
}

export function encodeJpeg(pixels: Pixels, quality: number): Uint8Array {
  return new Uint8Array(jpeg.encode({ width: pixels.width, height: pixels.height, data: pixels.data }, quality).data);
}

/** Every pixel fully opaque: only then may a JPEG (which has no alpha) stand in for the image. */
export function isOpaque(pixels: Pixels): boolean {
  for (let i = 3; i < pixels.data.length; i += 4) if (pixels.data[i] !== 255) return false;
  return true;
}
