/** Facts about the endpoint URL that decide whether a key is needed and whether to warn. */
import { redactUrl } from '../util/redact';
import { type EndpointCatalog } from '../routeId';

export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** Plain HTTP to a remote host would send the API key and the conversation in clear text. */
export function isInsecureRemoteUrl(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).protocol === 'http:' && !isLoopbackUrl(baseUrl);
  } catch {
    return false;
  }
}

/**
 * Whether OPENCODE_API_KEY (the environment key) may be sent to this endpoint: only over https to OpenCode itself.
 * Not to an endpoint added by URL, not to a proxy or a loopback server set as the default, never in clear text.
 */
export function envKeyAllowed(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).protocol === 'https:' && isOpenCodeUrl(baseUrl);
  } catch {
    return false;
  }
}

/**
 * The warning for an endpoint reached over plain HTTP (loopback exempt: nothing leaves the machine), or undefined.
 * `where` names the setting (`opencode.baseUrl`, `opencode.endpoints "id"`).
 */
export function plainHttpWarning(where: string, baseUrl: string): string | undefined {
  if (!isInsecureRemoteUrl(baseUrl)) return undefined;
  return `${where} ${redactUrl(baseUrl)} is plain HTTP to a remote host: your API key and conversation travel unencrypted. Use https://.`;
}

/** An endpoint of OpenCode itself (opencode.ai or a subdomain). */
export function isOpenCodeUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'opencode.ai' || host.endsWith('.opencode.ai');
  } catch {
    return false;
  }
}

/** The OpenCode catalogue an endpoint serves, from its URL; undefined for any other endpoint (custom, proxy, local). */
export function catalogOf(baseUrl: string): EndpointCatalog | undefined {
  if (!isOpenCodeUrl(baseUrl)) return undefined;
  const path = new URL(baseUrl).pathname;
  if (/\/zen\/go(\/|$)/.test(path)) return 'go';
  return /\/zen(\/|$)/.test(path) ? 'zen' : undefined;
}
