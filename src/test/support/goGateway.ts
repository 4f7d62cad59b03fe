/**
 * A loopback stand-in for OpenCode Go's address shape: `http://127.0.0.1:<port>/zen/go/v1/…` forwarded to
 * the fake server's `/v1/…` over real HTTP (the Go usage route, `/zen/go/v1/usage`, is the fake's own). It can
 * also refuse the next chat request the way a gateway does (`refuseNext`), for errors the fake has no
 * fault for (402: no quota left).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface GoGateway {
  /** The base URL to set as opencode.baseUrl. */
  url: string;
  refuseNext(status: number, body: unknown): void;
  close(): Promise<void>;
}

const PREFIX = '/zen/go';

export async function startGoGateway(fakeUrl: string): Promise<GoGateway> {
  const target = new URL(fakeUrl);
  const refusals: { status: number; body: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (!path.startsWith(`${PREFIX}/v1/`)) {
      res.writeHead(404).end();
      return;
    }
    const refusal = req.method === 'POST' && path.endsWith('/chat/completions') ? refusals.shift() : undefined;
    if (refusal) {
      req.resume();
      res.writeHead(refusal.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(refusal.body));
      return;
    }
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: path.slice(PREFIX.length), headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${PREFIX}/v1`,
    refuseNext: (status, body) => void refusals.push({ status, body }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
