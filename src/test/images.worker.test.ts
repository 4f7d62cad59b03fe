/**
 * Image fitting off the host thread (issue 29): the worker gives the same bytes as the calling thread, a
 * decompression bomb is refused from its header (the decoder is never called, memory stays flat), the EXIF
 * orientation is applied (a pixel check), nothing is re-encoded larger than it came, and the worker's failures
 * (cannot start, crash, full queue) fall back to sending the image as it came, with the reason.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as pngjs from 'pngjs';
import { jpegOrientation, type Orientation } from '../core/images/exifOrientation';
import { fitImage } from '../core/images/fitImage';
import { planFit } from '../core/images/fitPlan';
import { decodeImage } from '../core/images/imageCodec';
import { ImageFitter } from '../core/images/imageFitter';
import { base64Length, DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../core/images/imageLimits';
import { imageSize } from '../core/images/imageSize';
import { orientPixels } from '../core/images/orientPixels';
import type { Pixels } from '../core/images/resizePixels';
import { pngBomb, withExifOrientation } from './support/hostileImages';
import { gradientPixels, jpegOf, noisePixels, pngOf } from './support/testImages';
import { runs } from './support/propertyRuns';

const arbImage = fc.record({
  width: fc.integer({ min: 1, max: 64 }),
  height: fc.integer({ min: 1, max: 64 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  alpha: fc.boolean(),
  format: fc.constantFrom('png', 'jpeg'),
  orientation: fc.integer({ min: 1, max: 8 }),
  littleEndian: fc.boolean(),
}).map(({ width, height, seed, alpha, format, orientation, littleEndian }) => {
  const pixels = noisePixels(width, height, seed, alpha && format === 'png');
  const data = format === 'png' ? pngOf(pixels) : withExifOrientation(jpegOf(pixels), orientation, littleEndian);
  return { mimeType: `image/${format}`, data };
});
const arbLimits: fc.Arbitrary<ImageLimits> = fc.record({ maxLongSide: fc.integer({ min: 4, max: 80 }), maxBytes: fc.integer({ min: 600, max: 30_000 }) });

describe('image fitting off the host thread (core/images/imageFitter)', () => {
  let fitter: ImageFitter;
  before(() => (fitter = new ImageFitter()));
  after(() => fitter.close());

  it('property: the worker gives the same bytes as the calling thread, run after run, and never more bytes than came', async function () {
    this.timeout(180_000);
    await fc.assert(fc.asyncProperty(arbImage, arbLimits, async (image, limits) => {
      const here = fitImage(image, limits);
      const there = await fitter.fit({ mimeType: image.mimeType, data: Uint8Array.from(image.data) }, limits);
      const again = await fitter.fit({ mimeType: image.mimeType, data: Uint8Array.from(image.data) }, limits);
      assert.deepStrictEqual([there.outcome, there.mimeType], [here.outcome, here.mimeType]);
      assert.ok(Buffer.from(there.data).equals(Buffer.from(here.data)), 'worker bytes = calling-thread bytes');
      assert.ok(Buffer.from(again.data).equals(Buffer.from(there.data)), 'the same bytes on every run');
      if (here.outcome === 'fitted') {
        assert.ok(here.data.byteLength < image.data.byteLength, `re-encoded larger: ${image.data.byteLength} → ${here.data.byteLength}`);
        assert.ok(base64Length(here.data.byteLength) <= limits.maxBytes);
        const size = imageSize(here.data);
        assert.ok(size && Math.max(size.width, size.height) <= limits.maxLongSide);
      }
    }), { numRuns: runs(40) });
  });

  it('a decompression bomb (20000×20000 PNG, 49 KB) is refused from its header: the decoder is never called, memory stays flat', async () => {
    const bomb = pngBomb();
    assert.ok(bomb.byteLength < 50_000, `${bomb.byteLength} bytes`);
    const read = pngjs.PNG.sync.read;
    let decodes = 0;
    pngjs.PNG.sync.read = (...args: Parameters<typeof read>) => {
      decodes++;
      return read(...args);
    };
    try {
      const before = process.memoryUsage();
      const here = fitImage({ mimeType: 'image/png', data: bomb }, DEFAULT_IMAGE_LIMITS);
      const decodedBefore = fitter.decoded;
      const there = await fitter.fit({ mimeType: 'image/png', data: bomb }, DEFAULT_IMAGE_LIMITS);
      const grown = process.memoryUsage().arrayBuffers - before.arrayBuffers;
      for (const result of [here, there]) {
        assert.strictEqual(result.outcome, 'refused');
        assert.strictEqual(result.reason, '20000×20000 pixels is over the 100-megapixel bound');
      }
      assert.strictEqual(decodes, 0, 'pngjs never decoded it');
      assert.strictEqual(fitter.decoded, decodedBefore, 'no job reached the worker');
      assert.ok(grown < 50 * 1024 * 1024, `array buffers grew by ${grown} bytes`);
      assert.throws(() => decodeImage(bomb, 'image/png'), /more than 100 megapixels/);
      assert.strictEqual(decodes, 0, 'decodeImage checks the header before the decoder too');
    } finally {
      pngjs.PNG.sync.read = read;
    }
  });

  it('applies the EXIF orientation: a portrait photo stored sideways (orientation 6) reaches the model upright', async () => {
    // Upright: 40 wide, 80 tall; top-left red, top-right green, bottom half blue.
    const upright = (x: number, y: number): [number, number, number] => (y >= 40 ? [0, 0, 255] : x < 20 ? [255, 0, 0] : [0, 255, 0]);
    // Stored as the camera wrote it: 80×40, shown turned a quarter clockwise (orientation 6).
    const stored: Pixels = { width: 80, height: 40, data: new Uint8Array(80 * 40 * 4) };
    for (let y = 0; y < 80; y++) for (let x = 0; x < 40; x++) stored.data.set([...upright(x, y), 255], ((40 - 1 - x) * 80 + y) * 4);
    for (const littleEndian of [false, true]) {
      const photo = withExifOrientation(jpegOf(stored, 95), 6, littleEndian);
      assert.strictEqual(jpegOrientation(photo), 6);
      assert.deepStrictEqual(imageSize(photo), { width: 80, height: 40 });
      const fitted = await fitter.fit({ mimeType: 'image/jpeg', data: photo }, DEFAULT_IMAGE_LIMITS);
      assert.strictEqual(fitted.outcome, 'fitted');
      const pixels = decodeImage(fitted.data, fitted.mimeType as 'image/jpeg');
      assert.deepStrictEqual([pixels.width, pixels.height], [40, 80]);
      for (const [x, y] of [[5, 5], [34, 5], [5, 70], [34, 70], [20, 60]]) {
        const at = (y * 40 + x) * 4;
        const want = upright(x, y);
        const got = [pixels.data[at], pixels.data[at + 1], pixels.data[at + 2]];
        assert.ok(got.every((v, i) => Math.abs(v - want[i]) < 48), `(${x}, ${y}): ${got} is not ${want}`);
      }
    }
    assert.strictEqual(jpegOrientation(jpegOf(stored)), 1, 'no EXIF: upright');
  });

  it('property: every orientation is a mirror or quarter turn undone by its inverse', () => {
    const inverse: Record<Orientation, Orientation> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6 };
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 8 }), (w, h, o) => {
      const pixels = noisePixels(w, h, w * 31 + h, true);
      const turned = orientPixels(pixels, o as Orientation);
      assert.deepStrictEqual([turned.width, turned.height], o >= 5 ? [h, w] : [w, h]);
      const back = orientPixels(turned, inverse[o as Orientation]);
      assert.ok(Buffer.from(back.data).equals(Buffer.from(pixels.data)));
    }), { numRuns: runs(100) });
  });

  it('a screenshot whose JPEG re-encode would be larger is shrunk a step further, never sent larger than it came', async () => {
    // Flat panels and text strokes: PNG compresses it far better than the resized re-encodes.
    const shot: Pixels = { width: 2_560, height: 1_440, data: new Uint8Array(2_560 * 1_440 * 4) };
    for (let y = 0; y < 1_440; y++) for (let x = 0; x < 2_560; x++) {
      const ink = x >= 300 && y % 24 < 14 && x % 9 < 6 && (x * 7 + y) % 5 > 1;
      shot.data.set(x < 300 ? [37, 37, 38, 255] : ink ? [212, 212, 212, 255] : [30, 30, 30, 255], (y * 2_560 + x) * 4);
    }
    const png = pngOf(shot);
    const fitted = await fitter.fit({ mimeType: 'image/png', data: png }, DEFAULT_IMAGE_LIMITS);
    assert.strictEqual(fitted.outcome, 'fitted');
    assert.ok(fitted.data.byteLength < png.byteLength, `${png.byteLength} → ${fitted.data.byteLength}`);
    const size = imageSize(fitted.data);
    assert.ok(size && Math.max(size.width, size.height) <= 2_000, JSON.stringify(size));
  });

  it('a 12 MP phone photo (4000×3000 JPEG) is fitted in the worker, to the same bytes as on the calling thread', async function () {
    this.timeout(240_000);
    const photo = jpegOf(gradientPixels(4_000, 3_000), 92);
    const there = await fitter.fit({ mimeType: 'image/jpeg', data: photo }, DEFAULT_IMAGE_LIMITS);
    assert.strictEqual(there.outcome, 'fitted');
    assert.deepStrictEqual(imageSize(there.data), { width: 2_000, height: 1_500 });
    assert.ok(there.data.byteLength < photo.byteLength);
    const here = fitImage({ mimeType: 'image/jpeg', data: photo }, DEFAULT_IMAGE_LIMITS);
    assert.ok(Buffer.from(here.data).equals(Buffer.from(there.data)));
  });

  it("the caller's bytes stay whole: images that are views into one Buffer (as VS Code hands a message's parts) keep their bytes after a fit", async () => {
    const photo = jpegOf(gradientPixels(2_400, 1_600), 90);
    const bomb = pngBomb();
    const shared = Buffer.alloc(photo.byteLength + bomb.byteLength);
    shared.set(photo, 0);
    shared.set(bomb, photo.byteLength);
    const photoView = shared.subarray(0, photo.byteLength);
    const bombView = shared.subarray(photo.byteLength);
    const fitted = await fitter.fit({ mimeType: 'image/jpeg', data: photoView }, DEFAULT_IMAGE_LIMITS);
    assert.strictEqual(fitted.outcome, 'fitted');
    assert.strictEqual(photoView.byteLength, photo.byteLength, 'the photo it was given is still there');
    assert.ok(Buffer.from(bombView).equals(Buffer.from(bomb)), 'and so are the other parts of the same buffer');
  });

  it('images within the limits, bombs and formats it does not decode are decided from the header, without the worker', async () => {
    const small = pngOf(noisePixels(30, 20, 5));
    const gif = new Uint8Array([...Buffer.from('GIF89a'), 0x10, 0x27, 0x10, 0x27, 0, 0]);
    for (const data of [small, gif, pngBomb(12_000, 9_000)]) assert.ok('done' in planFit({ mimeType: 'image/png', data }, DEFAULT_IMAGE_LIMITS));
    const idle = new ImageFitter({ workerFile: path.join(os.tmpdir(), 'no-such-image-worker.js') });
    const unchanged = await idle.fit({ mimeType: 'image/png', data: small }, DEFAULT_IMAGE_LIMITS);
    assert.strictEqual(unchanged.outcome, 'unchanged', 'no worker was needed, so its absence does not matter');
    await idle.close();
  });
});

describe('image worker failures: the image is sent as it came, with the reason', () => {
  const big = pngOf(noisePixels(300, 100, 9));
  const limits = { maxLongSide: 100, maxBytes: 1_000_000 };

  it('a worker that cannot start (its file missing from the package): every image needing a decode, with the reason', async () => {
    const fitter = new ImageFitter({ workerFile: path.join(os.tmpdir(), 'no-such-image-worker.js') });
    const first = await fitter.fit({ mimeType: 'image/png', data: big }, limits);
    const second = await fitter.fit({ mimeType: 'image/png', data: big }, limits);
    for (const result of [first, second]) {
      assert.strictEqual(result.outcome, 'unfit');
      assert.strictEqual(result.data, big);
      assert.match(result.reason ?? '', /^the image worker could not start: Cannot find module/);
    }
    await fitter.close();
  });

  it('a worker that crashes fails the running image, and a new worker takes the next', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-worker-'));
    const crashing = path.join(dir, 'crashOnce.js');
    const flag = path.join(dir, 'crashed');
    const real = path.join(__dirname, '..', 'core', 'images', 'imageWorker.js');
    fs.writeFileSync(crashing, `const fs = require('fs');\nif (!fs.existsSync(${JSON.stringify(flag)})) {\n  const { parentPort } = require('worker_threads');\n  parentPort.on('message', () => { fs.writeFileSync(${JSON.stringify(flag)}, ''); process.exit(3); });\n  parentPort.postMessage({ ready: true });\n} else require(${JSON.stringify(real)});\n`);
    const fitter = new ImageFitter({ workerFile: crashing });
    const crashed = await fitter.fit({ mimeType: 'image/png', data: big }, limits);
    assert.strictEqual(crashed.outcome, 'unfit');
    assert.match(crashed.reason ?? '', /^the image worker stopped while fitting it \(it exited with code 3\)$/);
    const next = await fitter.fit({ mimeType: 'image/png', data: big }, limits);
    assert.strictEqual(next.outcome, 'fitted');
    assert.ok(Buffer.from(next.data).equals(Buffer.from(fitImage({ mimeType: 'image/png', data: big }, limits).data)));
    await fitter.close();
  });

  it('a bounded queue: beyond it an image goes as it came, marked transient (not remembered, tried again next time)', async () => {
    const fitter = new ImageFitter({ maxQueued: 1 });
    const images = [1, 2, 3].map((seed) => pngOf(noisePixels(300, 100, seed)));
    const results = await Promise.all(images.map((data) => fitter.fit({ mimeType: 'image/png', data }, limits)));
    assert.deepStrictEqual(results.map((r) => r.outcome), ['fitted', 'fitted', 'unfit']);
    assert.strictEqual(results[2].transient, true);
    assert.match(results[2].reason ?? '', /1 images are already waiting to be fitted/);
    await fitter.close();
  });
});
