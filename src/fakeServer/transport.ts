/** Low-level response writing: JSON bodies, SSE frames, pauses that end early when the client leaves. */
import type { ServerResponse } from 'node:http';
import type { ErrorReply } from './errors';

export function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.socket?.destroyed === true;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (isGone(res)) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ErrorReply): void {
  if (error.html === undefined) return sendJson(res, error.status, error.body, error.headers);
  if (isGone(res)) return;
  res.writeHead(error.status, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(error.html), ...error.headers });
  res.end(error.html);
}

export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
}

/** Resolves once the bytes are handed to the socket, so a destroy that follows does not swallow them. */
export function writeAndFlush(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => {
    if (isGone(res)) return resolve();
    res.write(data, () => resolve());
  });
}

/** Waits `ms`, or less if the response closes first (client abort, server shutdown). */
export function sleepUnlessClosed(res: ServerResponse, ms: number): Promise<void> {
  if (ms <= 0 || isGone(res)) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      res.off('close', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    res.once('close', finish);
  });
}

/** Writes frames with a pause between them; stops early (returning false) when the client has gone. */
export async function writeFramesPaced(res: ServerResponse, frames: readonly string[], delayMs: number): Promise<boolean> {
  for (let i = 0; i < frames.length; i++) {
    if (isGone(res)) return false;
    if (i > 0) await sleepUnlessClosed(res, delayMs);
    if (isGone(res)) return false;
    await writeAndFlush(res, frames[i]);
  }
  return !isGone(res);
}
