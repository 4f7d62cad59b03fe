/**
 * The one way the product derives a stable id from text: sha256, hex, cut to `length` characters. Deterministic ids
 * keep every request's bytes the same across turns and restarts (prefix stability); a cut hash is an id, not a
 * secret, so collisions only need to be unlikely among one conversation's items (24+ hex characters).
 */
import { createHash } from 'crypto';

export function hashId(text: string | Uint8Array, length = 64): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** Hashing a 5 MB photo in one go holds the thread ~20 ms: a slice at a time instead, yielding between slices. */
const HASH_SLICE = 512 * 1024;

/** hashId of large bytes (images), the host thread never held for more than one slice. */
export async function hashIdInSlices(data: Uint8Array, length = 64): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < data.byteLength; at += HASH_SLICE) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    hash.update(data.subarray(at, at + HASH_SLICE));
  }
  return hash.digest('hex').slice(0, length);
}
