/**
 * Area-average downscaling of RGBA pixels: each target pixel is the mean of the source pixels it covers,
 * weighted by how much of each it covers. Integer maths on fixed weights, so the same input always gives
 * the same pixels (the bytes an image is sent as must not change between turns). Only shrinks.
 */

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row by row. */
  data: Uint8Array;
}

/** Weights have this many steps per source pixel; the sums stay far inside a double's exact integers. */
const STEPS = 256;

export function resizePixels(source: Pixels, width: number, height: number): Pixels {
  if (width >= source.width && height >= source.height) return source;
  const xs = spans(source.width, width);
  const ys = spans(source.height, height);
  const out = new Uint8Array(width * height * 4);
  const row = new Float64Array(width * 4);
  const accum = new Float64Array(width * 4);
  for (let ty = 0; ty < height; ty++) {
    const { from: y0, weights: wy } = ys[ty];
    accum.fill(0);
    let totalY = 0;
    for (let k = 0; k < wy.length; k++) {
      horizontal(source, y0 + k, xs, row);
      for (let i = 0; i < row.length; i++) accum[i] += row[i] * wy[k];
      totalY += wy[k];
    }
    for (let tx = 0; tx < width; tx++) {
      const totalX = xs[tx].total;
      for (let c = 0; c < 4; c++) out[(ty * width + tx) * 4 + c] = Math.round(accum[tx * 4 + c] / (totalX * totalY));
    }
  }
  return { width, height, data: out };
}

interface Span {
  from: number;
  weights: number[];
  total: number;
}

/** For each target index, the source indexes it covers and how much of each (in STEPS). */
function spans(sourceLength: number, targetLength: number): Span[] {
  const out: Span[] = [];
  for (let t = 0; t < targetLength; t++) {
    // Fixed-point edges: target t covers source [t*S/T, (t+1)*S/T).
    const start = Math.floor((t * sourceLength * STEPS) / targetLength);
    const end = Math.floor(((t + 1) * sourceLength * STEPS) / targetLength);
    const from = Math.floor(start / STEPS);
    const weights: number[] = [];
    for (let s = from; s * STEPS < end; s++) weights.push(Math.min(end, (s + 1) * STEPS) - Math.max(start, s * STEPS));
    out.push({ from, weights, total: end - start });
  }
  return out;
}

/** One source row reduced to the target width (unnormalized sums). */
function horizontal(source: Pixels, y: number, xs: readonly Span[], row: Float64Array): void {
  const base = y * source.width * 4;
  for (let tx = 0; tx < xs.length; tx++) {
    const { from, weights } = xs[tx];
    let r = 0, g = 0, b = 0, a = 0;
    for (let k = 0; k < weights.length; k++) {
      const p = base + (from + k) * 4;
      const w = weights[k];
      r += source.data[p] * w;
      g += source.data[p + 1] * w;
      b += source.data[p + 2] * w;
      a += source.data[p + 3] * w;
    }
    row[tx * 4] = r;
    row[tx * 4 + 1] = g;
    row[tx * 4 + 2] = b;
    row[tx * 4 + 3] = a;
  }
}
