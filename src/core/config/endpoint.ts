/** Facts about the endpoint URL that decide whether a key is needed and whether to warn. */

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
