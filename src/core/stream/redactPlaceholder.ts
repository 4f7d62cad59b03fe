/**
 * PLACEHOLDER until src/core/util/redact.ts (being written on another branch) is merged: same name and call
 * shape (`redact(text)`), a subset of its rules. Replace the imports of this file with util/redact and delete
 * it. Hides Bearer tokens, `sk-…`-style keys and `key=`/`api_key:` values in text a gateway sent us.
 */
const MASK = '[redacted]';

export function redact(text: string): string {
  return text
    .replace(/\b(Bearer|Basic|Token)\s+[^\s"',;)\]}]+/gi, `$1 ${MASK}`)
    .replace(/\b(sk|pk|rk|ak)-[A-Za-z0-9_-]{6,}/g, `$1-${MASK}`)
    .replace(/((?:api[-_]?key|x-api-key|authorization|key)["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi, `$1${MASK}`);
}
