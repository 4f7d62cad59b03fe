/** The one content hash of the code base: SHA-256 of bytes or text, as lowercase hex (image memos, descriptions). */
import { createHash } from 'crypto';

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
