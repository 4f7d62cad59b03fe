/** A loopback server that serves fixed bytes as an SSE body, a few bytes per write, so characters and lines are cut anywhere. */
import * as http from 'http';
import type { AddressInfo } from 'net';

export async function rawSseServer(body: Buffer, piece = 7): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    for (let i = 0; i < body.length; i += piece) {
      res.write(body.subarray(i, i + piece));
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
