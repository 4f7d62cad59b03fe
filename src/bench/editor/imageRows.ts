/**
 * Bench rows for images: bytes before and after fitting to the default limits, the fit time, and how long the
 * extension host's thread was blocked (the event loop's longest delay while the image was fitted), for the fit
 * as it runs now (header check, then the worker: fitImages.ts) and side by side for the old synchronous path
 * (oldFitImage.ts), where the whole fit blocks the thread.
 */
import { monitorEventLoopDelay, performance } from 'perf_hooks';
import { fitImages, ImageFitMemo } from '../../core/images/fitImages';
import { ImageFitter } from '../../core/images/imageFitter';
import { DEFAULT_IMAGE_LIMITS } from '../../core/images/imageLimits';
import { imageSize } from '../../core/images/imageSize';
import { encodeJpeg, encodePng } from '../../core/images/imageCodec';
import type { Pixels } from '../../core/images/resizePixels';
import type { ChatMessage } from '../../core/types';
import { pngBomb, withExifOrientation } from '../../test/support/hostileImages';
import { oldFitImage } from './oldFitImage';

export interface Fit {
  bytes: number;
  size: string;
  mime: string;
  outcome: string;
  ms: number;
  /** The event loop's longest delay while fitting (the host thread's longest block, scheduling delays included). */
  blockMs: number;
  /** The host thread's own work while fitting (event-loop utilization's active time): what the fit costs the host. */
  busyMs: number;
}

export interface ImageRow {
  name: string;
  before: { bytes: number; size: string; mime: string };
  now: Fit;
  /** Absent when the old path was not run (the bomb: 1.6 GB; --old-bomb runs it). */
  old?: Fit;
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

interface Case {
  name: string;
  make: () => { mime: string; data: Uint8Array };
  /** The old path decodes it in full (1.6 GB): run only when asked. */
  heavyOld?: boolean;
}

const CASES: Case[] = [
  { name: 'screenshot 2560×1440 PNG (within 5 MB, over 2,000 px)', make: () => ({ mime: 'image/png', data: encodePng(screenshot(2560, 1440)) }) },
  { name: 'photo 4032×3024 JPEG q92 (12 MP phone camera, EXIF orientation 6)', make: () => ({ mime: 'image/jpeg', data: withExifOrientation(encodeJpeg(photo(4032, 3024), 92), 6) }) },
  { name: 'photo 3000×2000 PNG (over 5 MB)', make: () => ({ mime: 'image/png', data: encodePng(photo(3000, 2000)) }) },
  { name: 'screenshot 1280×800 PNG (within the limits)', make: () => ({ mime: 'image/png', data: encodePng(screenshot(1280, 800)) }) },
  { name: 'decompression bomb 20000×20000 PNG (1-bit grey, 49 KB)', make: () => ({ mime: 'image/png', data: pngBomb() }), heavyOld: true },
];

const sizeOf = (data: Uint8Array): string => {
  const s = imageSize(data);
  return s ? `${s.width}×${s.height}` : '?';
};

/** Runs `work` while the event loop's delay is sampled every millisecond. */
async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number; blockMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  // The histogram samples from its first timer turn on: a block before it would go unseen.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  // One more turn of the loop, so a block at the very end is sampled too.
  await new Promise((resolve) => setTimeout(resolve, 5));
  histogram.disable();
  return { value, ms, blockMs: Math.max(0, histogram.max / 1e6 - 1) };
}

/** Host thread's active time over `work` alone (no delay monitor: its 1 ms timer would count as work). */
async function busy(work: () => Promise<unknown>): Promise<number> {
  const utilization = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(utilization).active;
}

/** Twice, each with a fresh memo: once under the delay monitor (block), once without it (busy). */
async function fitNow(fitter: ImageFitter, image: { mime: string; data: Uint8Array }): Promise<Fit> {
  const messages: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'toolResult', callId: 'c', text: 'shot', images: [{ mimeType: image.mime, data: image.data }] }] }];
  const memo = () => new ImageFitMemo((one, limits) => fitter.fit(one, limits));
  const { value, ms, blockMs } = await timed(() => fitImages(messages, DEFAULT_IMAGE_LIMITS, memo()));
  const busyMs = await busy(() => fitImages(messages, DEFAULT_IMAGE_LIMITS, memo()));
  const part = value.messages[0].parts[0];
  const sent = part.kind === 'toolResult' ? part.images?.[0] : undefined;
  const outcome = value.stats.refused ? 'refused (a note)' : value.stats.fitted ? 'fitted' : value.stats.unfit ? 'unfit' : 'unchanged';
  return { bytes: sent?.data.byteLength ?? 0, size: sent ? sizeOf(sent.data) : '—', mime: sent?.mimeType ?? '—', outcome, ms, blockMs, busyMs };
}

/** The old path is one synchronous call: its whole time is the host's block. */
async function fitOld(image: { mime: string; data: Uint8Array }): Promise<Fit> {
  const { value, ms } = await timed(() => oldFitImage(image.data, DEFAULT_IMAGE_LIMITS));
  return { bytes: value.data.byteLength, size: sizeOf(value.data), mime: value.mimeType, outcome: value.outcome, ms, blockMs: ms, busyMs: ms };
}

/** The same measure over an idle wait: the longest delay the machine's load alone causes. */
export async function idleBlockMs(ms: number): Promise<number> {
  return (await timed(() => new Promise((resolve) => setTimeout(resolve, ms)))).blockMs;
}

export async function measureImages(options: { oldBomb?: boolean } = {}): Promise<ImageRow[]> {
  const fitter = new ImageFitter();
  // The worker's start is not an image's cost: warm it once on a small image that needs decoding.
  await fitter.fit({ mimeType: 'image/png', data: encodePng(screenshot(2100, 10)) }, DEFAULT_IMAGE_LIMITS);
  const rows: ImageRow[] = [];
  for (const { name, make, heavyOld } of CASES) {
    const image = make();
    const now = await fitNow(fitter, image);
    const old = heavyOld && !options.oldBomb ? undefined : await fitOld(image);
    rows.push({ name, before: { bytes: image.data.byteLength, size: sizeOf(image.data), mime: image.mime }, now, old });
  }
  await fitter.close();
  return rows;
}
