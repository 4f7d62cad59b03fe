/**
 * The one redaction pass for text that reaches a user or a log line and was built from something we do not
 * control (a transport or SDK message, a URL from settings). It hides API keys, Bearer tokens, URL userinfo
 * and the values of secret-looking query parameters. Known secrets (the key in use) are replaced wherever
 * they appear, including split by control characters that a transport might echo back escaped.
 */

const MASK = '[redacted]';
/** Query parameters whose values are credentials on some gateway or other. */
const SECRET_PARAM = /^(?:key|api[-_]?key|apikey|token|access[-_]?token|auth|authorization|secret|password|pass|pwd|sig|signature|code|session|x-api-key)$/i;

/** Redacts `text`; `secrets` are exact strings (the current API key) to hide wherever they occur. */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 4) out = replaceAllVariants(out, secret);
  return out
    .replace(/\b(Bearer)\s+[^\s"',;)\]}]+/gi, `$1 ${MASK}`)
    .replace(/\bBasic\s+[A-Za-z0-9+/=]{8,}/g, `Basic ${MASK}`)
    .replace(/\b(sk|pk|rk|ak)-[A-Za-z0-9_-]{6,}/g, `$1-${MASK}`)
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"']+)@/gi, `$1${MASK}@`)
    // The value ends before a sentence's closing punctuation, so "…?key=abc." keeps its full stop.
    .replace(/([?&])([^=&#\s"']+)=([^&#\s"']*?)(?=[.,;:)]?(?:[\s"'&#]|$))/g, (whole, sep: string, name: string) => (SECRET_PARAM.test(name) ? `${sep}${name}=${MASK}` : whole))
    .replace(/((?:api[-_]?key|x-api-key|authorization)["']?\s*[:=]\s*["']?)[^\s"',;]+/gi, `$1${MASK}`);
}

/** A URL as it may be shown: no userinfo, secret query values masked. Not a URL → redacted text. */
export function redactUrl(url: string): string {
  return redact(url);
}

/**
 * The secret itself, and the forms a message may carry it in: JSON-escaped (`\n` as backslash-n) and cut at
 * its first control character (undici quotes the header value; a log may show only the part before a break).
 */
function replaceAllVariants(text: string, secret: string): string {
  // eslint-disable-next-line no-control-regex -- a key split at its control characters is what is looked for
  const variants = new Set([secret, JSON.stringify(secret).slice(1, -1), ...secret.split(/[\u0000-\u001f\u007f\s]+/).filter((part) => part.length >= 4)]);
  let out = text;
  for (const variant of [...variants].sort((a, b) => b.length - a.length)) out = out.split(variant).join(MASK);
  return out;
}
