/**
 * Pixels turned upright by their EXIF orientation (exifOrientation.ts): the mirror and quarter turns the
 * viewer would apply. Orientations 5–8 swap width and height. A pure copy, the same output for the same input.
 */
import type { Orientation } from './exifOrientation';
import type { Pixels } from './resizePixels';

export function orientPixels(source: Pixels, orientation: Orientation): Pixels {
  if (orientation === 1) return source;
  const { width: w, height: h } = source;
  const swaps = orientation >= 5;
  const width = swaps ? h : w;
  const height = swaps ? w : h;
  const from = sourceOf(orientation, w, h);
  const data = new Uint8Array(width * height * 4);
  // One 32-bit read and write per pixel: RGBA moves whole, whatever the byte order.
  if (source.data.byteOffset % 4 === 0) {
    const src = new Uint32Array(source.data.buffer, source.data.byteOffset, w * h);
    const out = new Uint32Array(data.buffer);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = src[from(x, y)];
  } else {
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(source.data.subarray(from(x, y) * 4, from(x, y) * 4 + 4), (y * width + x) * 4);
  }
  return { width, height, data };
}

/** For an output pixel (x, y), the index of the source pixel shown there. */
function sourceOf(orientation: Orientation, w: number, h: number): (x: number, y: number) => number {
  switch (orientation) {
    case 2: return (x, y) => y * w + (w - 1 - x);
    case 3: return (x, y) => (h - 1 - y) * w + (w - 1 - x);
    case 4: return (x, y) => (h - 1 - y) * w + x;
    case 5: return (x, y) => x * w + y;
    case 6: return (x, y) => (h - 1 - x) * w + y;
    case 7: return (x, y) => (h - 1 - x) * w + (w - 1 - y);
    case 8: return (x, y) => x * w + (w - 1 - y);
    default: return (x, y) => y * w + x;
  }
}
