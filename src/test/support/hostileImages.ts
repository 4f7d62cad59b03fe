/**
 * Images made on the spot for the image tests and the bench: a real decompression-bomb PNG (a valid file whose
 * header declares 20000×20000 pixels, 1-bit grey, ~49 KB: 1.6 GB as RGBA), and a JPEG carrying an EXIF
 * orientation (the APP1 segment a phone writes, in either byte order).
 */
import * as zlib from 'zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid all-black PNG of `width`×`height` 1-bit grey pixels: tiny as a file, huge once decoded. */
export function pngBomb(width = 20_000, height = 20_000): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8))); // filter byte 0 + zero bits, every row
  const idat = zlib.deflateSync(rows, { level: 9 });
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]));
}

/** The JPEG with an EXIF APP1 segment (IFD0 holding only the orientation) right after its SOI marker. */
export function withExifOrientation(jpeg: Uint8Array, orientation: number, littleEndian = false): Uint8Array {
  const tiff = Buffer.alloc(26);
  const u16 = (v: number, at: number) => (littleEndian ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (littleEndian ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
  tiff.write(littleEndian ? 'II' : 'MM', 0, 'ascii');
  u16(42, 2);
  u32(8, 4); // IFD0 right after the header
  u16(1, 8); // one entry
  u16(0x0112, 10); // orientation
  u16(3, 12); // SHORT
  u32(1, 14); // one value
  u16(orientation, 18);
  u32(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiff]);
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
  return new Uint8Array(Buffer.concat([Buffer.from(jpeg.subarray(0, 2)), segment, Buffer.from(jpeg.subarray(2))]));
}
