/**
 * A loopback server that answers every POST with a fixed 200 body (any content type), then optionally keeps the
 * connection open sending a frame every `tailEveryMs` (keep-alives, pings) until the client goes away.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface Scripted {
  body: string;
  contentType?: string;
  /** Sent again and again after the body, until the client closes the request. */
  tail?: string;
  tailEveryMs?: number;
}

export async function scriptedServer(script: Scripted): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    req.resume();
    state.requests++;
    res.writeHead(200, script.contentType === undefined ? {} : { 'Content-Type': script.contentType });
    res.write(script.body);
    if (!script.tail) return void res.end();
    const timer = setInterval(() => res.write(script.tail), script.tailEveryMs ?? 100);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    close: () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
