/**
 * The one way the product derives a stable id from text: sha256, hex, cut to `length` characters. Deterministic ids
 * keep every request's bytes the same across turns and restarts (prefix stability); a cut hash is an id, not a
 * secret, so collisions only need to be unlikely among one conversation's items (24+ hex characters).
 */
import { createHash } from 'crypto';

export function hashId(text: string | Uint8Array, length = 64): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}
