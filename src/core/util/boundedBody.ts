/**
 * The one bounded read of an HTTP body the extension did not ask to stream (models.dev data, the Go quota):
 * at most `maxBytes` are read; past that the stream is cancelled, never read to its end, so a huge or endless
 * answer costs neither memory nor time.
 */

/** The body as UTF-8 text, or undefined once it passes `maxBytes`. */
export async function readAtMost(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
