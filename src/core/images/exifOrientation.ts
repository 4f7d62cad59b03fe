/**
 * The EXIF orientation of a JPEG, read from its APP1 segment without decoding: 1 (upright, also when there is
 * no EXIF or it is malformed) to 8. A phone stores a portrait photo as landscape pixels with orientation 6 and
 * relies on the viewer to turn it; the models do not, so fitImage turns the pixels (orientPixels.ts).
 */

export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

const ORIENTATION_TAG = 0x0112;

export function jpegOrientation(b: Uint8Array): Orientation {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return 1;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return 1;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    // Start of scan or of a frame: the EXIF segment, if any, came before.
    if (marker === 0xda || (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)) return 1;
    const length = (b[at + 2] << 8) | b[at + 3];
    if (length < 2) return 1;
    if (marker === 0xe1 && isExif(b, at + 4)) return tiffOrientation(b, at + 10, Math.min(b.length, at + 2 + length));
    at += 2 + length;
  }
  return 1;
}

function isExif(b: Uint8Array, at: number): boolean {
  return at + 6 <= b.length && b[at] === 0x45 && b[at + 1] === 0x78 && b[at + 2] === 0x69 && b[at + 3] === 0x66 && b[at + 4] === 0 && b[at + 5] === 0;
}

/** IFD0 of the TIFF structure at `tiff` (up to `end`): the orientation entry's SHORT value. */
function tiffOrientation(b: Uint8Array, tiff: number, end: number): Orientation {
  if (tiff + 8 > end) return 1;
  const little = b[tiff] === 0x49 && b[tiff + 1] === 0x49;
  if (!little && !(b[tiff] === 0x4d && b[tiff + 1] === 0x4d)) return 1;
  const u16 = (at: number) => (little ? b[at] | (b[at + 1] << 8) : (b[at] << 8) | b[at + 1]);
  const u32 = (at: number) => (little ? (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000 : b[at] * 0x1000000 + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]));
  if (u16(tiff + 2) !== 42) return 1;
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? (value as Orientation) : 1;
  }
  return 1;
}
