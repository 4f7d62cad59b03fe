/**
 * A loopback server for the differential tests: every request (any path: each SDK and each route names its
 * own) gets the body set last, written in the pieces the property chose, one write per event-loop turn so
 * the reader sees UTF-8 characters, lines and frames cut anywhere. Bodies are served as given: the bytes the
 * SDK reads are the bytes the extension reads.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface PieceServer {
  /** http://127.0.0.1:port (no path). */
  origin: string;
  /** The next requests get `body` cut at the byte offsets `cuts`, with `status` (200 = an SSE stream). */
  serve(body: string, cuts: readonly number[], status?: number): void;
  /** Requests received since the last `serve`: path and headers. */
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function startPieceServer(): Promise<PieceServer> {
  let body = Buffer.alloc(0);
  let cuts: readonly number[] = [];
  let status = 200;
  const requests: PieceServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', async () => {
      res.writeHead(status, { 'content-type': status === 200 ? 'text/event-stream' : 'application/json' });
      let start = 0;
      for (const point of [...cuts, body.length]) {
        if (point <= start || point > body.length) continue;
        res.write(body.subarray(start, point));
        start = point;
        await nextTurn();
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    serve(text, at, code = 200) {
      body = Buffer.from(text, 'utf8');
      cuts = at;
      status = code;
      requests.length = 0;
    },
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
