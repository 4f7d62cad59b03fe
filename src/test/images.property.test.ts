/** Images made to fit a model's limits: decided per image from its own bytes, byte-stable, within the limits. */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { fitImage } from '../core/images/fitImage';
import { fitImages, ImageFitMemo } from '../core/images/fitImages';
import { ImageFitter } from '../core/images/imageFitter';
import { decodeImage } from '../core/images/imageCodec';
import { base64Length, DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../core/images/imageLimits';
import { imageSize, sniffMime } from '../core/images/imageSize';
import { resizePixels } from '../core/images/resizePixels';
import type { ChatMessage } from '../core/types';
import { gradientPixels, jpegOf, noisePixels, pngOf } from './support/testImages';
import { runs } from './support/propertyRuns';

const arbImage = fc.record({
  width: fc.integer({ min: 1, max: 48 }),
  height: fc.integer({ min: 1, max: 48 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  alpha: fc.boolean(),
  format: fc.constantFrom('png', 'jpeg'),
}).map(({ width, height, seed, alpha, format }) => {
  const pixels = noisePixels(width, height, seed, alpha && format === 'png');
  return { width, height, mimeType: `image/${format}`, data: format === 'png' ? pngOf(pixels) : jpegOf(pixels) };
});
const arbLimits: fc.Arbitrary<ImageLimits> = fc.record({ maxLongSide: fc.integer({ min: 4, max: 64 }), maxBytes: fc.integer({ min: 600, max: 20_000 }) });

describe('images that fit (core/images)', () => {
  it('reads the pixel size from PNG and JPEG headers', () => {
    fc.assert(fc.property(arbImage, (image) => {
      assert.deepStrictEqual(imageSize(image.data), { width: image.width, height: image.height });
      assert.strictEqual(sniffMime(image.data), image.mimeType);
    }), { numRuns: runs(60) });
    assert.strictEqual(imageSize(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])), undefined);
  });

  it('property: the same image always gives the same bytes, within the limits, and an image already within them is untouched', function () {
    this.timeout(120_000); // up to 8 encodes per case; the shared CI machine is slow under load
    fc.assert(fc.property(arbImage, arbLimits, (image, limits) => {
      const first = fitImage(image, limits);
      const again = fitImage({ mimeType: image.mimeType, data: Uint8Array.from(image.data) }, limits);
      assert.deepStrictEqual(Buffer.from(again.data), Buffer.from(first.data), 'byte-stable');
      assert.strictEqual(again.mimeType, first.mimeType);
      const within = Math.max(image.width, image.height) <= limits.maxLongSide && base64Length(image.data.byteLength) <= limits.maxBytes;
      if (within) {
        assert.strictEqual(first.outcome, 'unchanged');
        assert.strictEqual(first.data, image.data);
        return;
      }
      if (first.outcome === 'unfit') return; // only when even the smallest step is over the byte limit
      assert.strictEqual(first.outcome, 'fitted');
      const size = imageSize(first.data);
      assert.ok(size && Math.max(size.width, size.height) <= limits.maxLongSide, `long side ${JSON.stringify(size)} > ${limits.maxLongSide}`);
      assert.ok(base64Length(first.data.byteLength) <= limits.maxBytes);
      assert.strictEqual(sniffMime(first.data), first.mimeType);
    }), { numRuns: runs(50) });
  });

  it('keeps the aspect ratio and transparency: a transparent PNG stays a PNG', () => {
    const transparent = pngOf(noisePixels(400, 100, 7, true));
    const fitted = fitImage({ mimeType: 'image/png', data: transparent }, { maxLongSide: 200, maxBytes: 10_000_000 });
    assert.strictEqual(fitted.outcome, 'fitted');
    assert.strictEqual(fitted.mimeType, 'image/png');
    assert.deepStrictEqual(imageSize(fitted.data), { width: 200, height: 50 });
  });

  it('re-encodes an image within the long side but over the byte limit when that makes it small enough', () => {
    const photo = pngOf(gradientPixels(300, 200));
    const limits = { maxLongSide: 2_000, maxBytes: base64Length(photo.byteLength) - 1 };
    const fitted = fitImage({ mimeType: 'image/png', data: photo }, limits);
    assert.strictEqual(fitted.outcome, 'fitted');
    assert.ok(base64Length(fitted.data.byteLength) <= limits.maxBytes);
  });

  it('a format it cannot decode is sent as it was, with the reason', () => {
    const gif = new Uint8Array([...Buffer.from('GIF89a'), 0x10, 0x27, 0x10, 0x27, 0, 0]);
    const fitted = fitImage({ mimeType: 'image/gif', data: gif }, DEFAULT_IMAGE_LIMITS);
    assert.strictEqual(fitted.outcome, 'unfit');
    assert.strictEqual(fitted.data, gif);
    assert.match(fitted.reason ?? '', /image\/gif is not decoded/);
    const broken = fitImage({ mimeType: 'image/png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]) }, DEFAULT_IMAGE_LIMITS);
    assert.strictEqual(broken.outcome, 'unfit');
  });

  it('area-average resize: a flat colour stays that colour, and the mean is kept', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 2, max: 40 }), fc.integer({ min: 0, max: 255 }), (w, h, value) => {
      const flat = { width: w, height: h, data: new Uint8Array(w * h * 4).fill(value) };
      const small = resizePixels(flat, Math.max(1, w >> 1), Math.max(1, h >> 1));
      assert.ok(small.data.every((v) => v === value));
    }), { numRuns: runs(50) });
  });

  it('fits user images and tool-result images, memoized by content (decoded once, in the worker), and counts bytes before and after', async () => {
    const big = pngOf(noisePixels(120, 60, 3));
    const messages: ChatMessage[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'look' }, { kind: 'image', mimeType: 'image/png', data: big }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'shot', images: [{ mimeType: 'image/png', data: Uint8Array.from(big) }] }] },
    ];
    const fitter = new ImageFitter();
    const memo = new ImageFitMemo((image, limits) => fitter.fit(image, limits));
    const limits = { maxLongSide: 60, maxBytes: 1_000_000 };
    const { messages: out, stats } = await fitImages(messages, limits, memo).finally(() => fitter.close());
    assert.strictEqual(fitter.decoded, 1, 'one decode for the two copies');
    assert.deepStrictEqual({ images: stats.images, fitted: stats.fitted, unfit: stats.unfit, bytesBefore: stats.bytesBefore }, { images: 2, fitted: 2, unfit: 0, bytesBefore: 2 * big.byteLength });
    const user = out[0].parts[1];
    const tool = out[1].parts[0];
    assert.ok(user.kind === 'image' && tool.kind === 'toolResult' && tool.images);
    assert.strictEqual(tool.images[0].data, user.data, 'the same image is the same fitted bytes (one decode)');
    assert.deepStrictEqual(imageSize(user.data), { width: 60, height: 30 });
    assert.strictEqual(stats.bytesAfter, 2 * user.data.byteLength);
    assert.strictEqual(decodeImage(user.data, user.mimeType as 'image/png').width, 60);
    assert.strictEqual(out[0].parts[0], messages[0].parts[0]);
  });
});
