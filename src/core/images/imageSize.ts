/**
 * An image's pixel size read from its header alone (no decoding): PNG, JPEG, GIF and WebP. Used to decide
 * whether an image already fits (fitImage.ts) and by the fake server's image checks. Undefined when the
 * bytes are not one of these formats or the header is cut short.
 */

export interface PixelSize {
  width: number;
  height: number;
}

export function imageSize(bytes: Uint8Array): PixelSize | undefined {
  return pngSize(bytes) ?? jpegSize(bytes) ?? gifSize(bytes) ?? webpSize(bytes);
}

/** The format the bytes are in, whatever the mime type says (a client may mislabel an image). */
export function sniffMime(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(bytes, 0, 4) === 'GIF8') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (bytes.length < at + length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function u16be(b: Uint8Array, at: number): number {
  return (b[at] << 8) | b[at + 1];
}

function u32be(b: Uint8Array, at: number): number {
  return ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
}

function u16le(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function u24le(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
}

function pngSize(b: Uint8Array): PixelSize | undefined {
  if (sniffMime(b) !== 'image/png' || b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return undefined;
  return positive(u32be(b, 16), u32be(b, 20));
}

/** Walks the JPEG markers to the first start-of-frame (SOF0–SOF15 except DHT, JPG and DAC). */
function jpegSize(b: Uint8Array): PixelSize | undefined {
  if (sniffMime(b) !== 'image/jpeg') return undefined;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return positive(u16be(b, at + 7), u16be(b, at + 5));
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    at += 2 + u16be(b, at + 2);
  }
  return undefined;
}

function gifSize(b: Uint8Array): PixelSize | undefined {
  if (sniffMime(b) !== 'image/gif' || b.length < 10) return undefined;
  return positive(u16le(b, 6), u16le(b, 8));
}

function webpSize(b: Uint8Array): PixelSize | undefined {
  if (sniffMime(b) !== 'image/webp' || b.length < 30) return undefined;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') return positive(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  if (chunk === 'VP8L') {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return positive((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return positive(u24le(b, 24) + 1, u24le(b, 27) + 1);
  return undefined;
}

function positive(width: number, height: number): PixelSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}
