/** Real images made on the spot (pngjs / jpeg-js): the fake server decodes headers, so tests send real ones. */
import { encodeJpeg, encodePng } from '../../core/images/imageCodec';
import type { Pixels } from '../../core/images/resizePixels';

/** Deterministic pseudo-random pixels (a noise image compresses badly, so it is large in bytes too). */
export function noisePixels(width: number, height: number, seed = 1, alpha = false): Pixels {
  const data = new Uint8Array(width * height * 4);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    data[i] = (i & 3) === 3 && !alpha ? 255 : state >>> 24;
  }
  return { width, height, data };
}

/** Smooth gradients: what a photo or a screenshot looks like to a codec (small after compression). */
export function gradientPixels(width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      data[p] = (x * 255) / width;
      data[p + 1] = (y * 255) / height;
      data[p + 2] = ((x + y) * 127) / (width + height);
      data[p + 3] = 255;
    }
  }
  return { width, height, data };
}

export const pngOf = (pixels: Pixels): Uint8Array => encodePng(pixels);
export const jpegOf = (pixels: Pixels, quality = 90): Uint8Array => encodeJpeg(pixels, quality);

/** A valid 1×1 PNG. */
export const TINY_PNG = pngOf(noisePixels(1, 1));
