/** Bench rows for images: bytes before and after fitting to the default limits, and the one-time cost. */
import { performance } from 'perf_hooks';
import { fitImage } from '../../core/images/fitImage';
import { DEFAULT_IMAGE_LIMITS } from '../../core/images/imageLimits';
import { imageSize } from '../../core/images/imageSize';
import { encodeJpeg, encodePng } from '../../core/images/imageCodec';
import type { Pixels } from '../../core/images/resizePixels';

export interface ImageRow {
  name: string;
  before: { bytes: number; size: string; mime: string };
  after: { bytes: number; size: string; mime: string };
  outcome: string;
  ms: number;
}

function pixels(width: number, height: number, colour: (x: number, y: number) => [number, number, number]): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const [r, g, b] = colour(x, y);
    data.set([r, g, b, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

/** A UI screenshot: flat panels, a grid of "text" strokes. */
const screenshot = (w: number, h: number) => pixels(w, h, (x, y) => (x < 300 ? [37, 37, 38] : (y % 24 < 14 && x % 9 < 6 && (x * 7 + y) % 5 > 1) ? [212, 212, 212] : [30, 30, 30]));
/** A photo-like image: smooth gradients with fine noise. */
const photo = (w: number, h: number) => {
  let seed = 7;
  return pixels(w, h, (x, y) => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    const n = (seed >>> 28) - 8;
    return [(x * 255) / w + n, (y * 255) / h + n, ((x + y) * 127) / (w + h) + n];
  });
};

const CASES: { name: string; make: () => { mime: string; data: Uint8Array } }[] = [
  { name: 'screenshot 2560×1440 PNG (within 5 MB, over 2,000 px)', make: () => ({ mime: 'image/png', data: encodePng(screenshot(2560, 1440)) }) },
  { name: 'photo 4032×3024 JPEG q92 (phone camera)', make: () => ({ mime: 'image/jpeg', data: encodeJpeg(photo(4032, 3024), 92) }) },
  { name: 'photo 3000×2000 PNG (over 5 MB)', make: () => ({ mime: 'image/png', data: encodePng(photo(3000, 2000)) }) },
  { name: 'screenshot 1280×800 PNG (within the limits)', make: () => ({ mime: 'image/png', data: encodePng(screenshot(1280, 800)) }) },
];

const sizeOf = (data: Uint8Array): string => {
  const s = imageSize(data);
  return s ? `${s.width}×${s.height}` : '?';
};

export function measureImages(): ImageRow[] {
  return CASES.map(({ name, make }) => {
    const image = make();
    const started = performance.now();
    const fitted = fitImage({ mimeType: image.mime, data: image.data }, DEFAULT_IMAGE_LIMITS);
    const ms = performance.now() - started;
    return {
      name,
      before: { bytes: image.data.byteLength, size: sizeOf(image.data), mime: image.mime },
      after: { bytes: fitted.data.byteLength, size: sizeOf(fitted.data), mime: fitted.mimeType },
      outcome: fitted.outcome,
      ms,
    };
  });
}
