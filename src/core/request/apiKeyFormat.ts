/**
 * What an API key may look like before it is put in a header. A key with a control character, a space or a
 * non-ASCII character cannot be a valid header value: undici throws with the whole header (key included) in
 * its message. So such a key is refused when stored and when read, with a message that never quotes it.
 */
import { UserFacingError, SET_KEY_HINT } from './userFacingError';

export const MAX_API_KEY_LENGTH = 4096;

/** Why `key` (already trimmed) cannot be used, or undefined when it can. Never includes the key. */
export function apiKeyProblem(key: string): string | undefined {
  if (key.length > MAX_API_KEY_LENGTH) return `is longer than ${MAX_API_KEY_LENGTH} characters`;
  const bad = /[^\x21-\x7e]/.exec(key);
  if (!bad) return undefined;
  const code = bad[0].charCodeAt(0);
  const what = code < 0x20 || code === 0x7f ? 'a control character' : /\s/.test(bad[0]) ? 'a space' : 'a non-ASCII character';
  return `contains ${what} (at position ${bad.index + 1})`;
}

export class InvalidApiKeyError extends UserFacingError {
  constructor(source: string, problem: string) {
    super('key', `The OpenCode API key from ${source} ${problem}, so it was not used. ${SET_KEY_HINT}`, `invalid key from ${source}: ${problem}`);
  }
}
