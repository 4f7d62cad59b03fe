/**
 * The fake OpenCode server: one real loopback HTTP server (Node `http`, no framework) shared by tests,
 * benchmarks, the replay tool and `npm start`. This file only routes and manages the lifecycle; each step
 * of a request lives in its own module.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeServer, FakeServerOptions, FaultSpec } from './types';
import { createState, resetState, type ServerState } from './state';
import { handleChatCompletion } from './chatCompletion';
import { handleControl } from './controlRoutes';
import { GO_USAGE_PATHS, handleGoUsage, setGoUsage } from './goUsage';
import { findModel, modelListBody } from './models';
import { idsOnlyListBody, mountedModels, mountOf } from './mounts';
import { parseFaultSpec } from './faults';
import { hasBearer, headerValue, parseBody, readRawBody } from './requestInput';
import { handleNativeRoute } from './nativeRoutes';
import { GEMINI_PATH, handleGemini } from './geminiRoute';
import { anthropicAuth, wrongFormat } from './routeErrors';
import * as errors from './errors';
import { sendError, sendJson } from './transport';

export * from './types';

const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

function loopbackHost(host: string | undefined): string {
  const chosen = host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.includes(chosen)) throw new Error(`The fake server only binds loopback (${LOOPBACK_HOSTS.join(', ')}), not ${chosen}`);
  return chosen;
}

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`;
}

async function route(given: ServerState, req: http.IncomingMessage, res: http.ServerResponse, log?: (line: string) => void): Promise<void> {
  const method = req.method ?? 'GET';
  const requested = new URL(req.url ?? '/', 'http://fake').pathname;
  // Mounted like OpenCode's gateway (mounts.ts): the same handlers, that endpoint's lineup.
  const mount = mountOf(requested);
  const path = mount?.path ?? requested;
  const state = mount ? { ...given, settings: { ...given.settings, models: mountedModels(mount.catalog, given.settings.models) } } : given;
  const body = parseBody(await readRawBody(req));
  if (method === 'POST' && path === '/_control/go-usage') return setGoUsage(state, body, res);
  if (path.startsWith('/_control/')) return handleControl(state, method, path, body, res);
  if (method === 'GET' && GO_USAGE_PATHS.includes(path)) return handleGoUsage(state, req, res);

  const index = state.recorder.record(req, res, requested, body);
  const notes: string[] = [];
  if (log) {
    const startedAt = Date.now();
    res.once('close', () => log(requestLogLine(index, method, requested, res, Date.now() - startedAt, notes)));
  }
  const { requireKey, models } = state.settings;
  const exchange = { state, req, res, body, index, notes };
  if (method === 'POST' && path === '/v1/messages') {
    // OpenCode reads the /messages key only from x-api-key (a Bearer header alone is "Missing API key").
    const key = headerValue(req, 'x-api-key');
    if (requireKey !== undefined && key !== requireKey) return sendError(res, anthropicAuth(key === undefined));
    return handleNativeRoute('messages', exchange);
  }
  // Gemini reads its key only from x-goog-api-key (checked in handleGemini).
  const gemini = method === 'POST' ? GEMINI_PATH.exec(path) : null;
  if (gemini) return handleGemini(decodeURIComponent(gemini[1]), exchange);
  if (requireKey !== undefined && !hasBearer(req, requireKey)) return sendError(res, errors.invalidApiKey());
  if (method === 'GET' && path === '/v1/models') return sendJson(res, 200, mount ? idsOnlyListBody(models) : modelListBody(models));
  if (method === 'POST' && path === '/v1/responses') return handleNativeRoute('responses', exchange);
  if (method === 'POST' && path === '/v1/chat/completions') {
    const model = findModel(models, (body as { model?: unknown } | undefined)?.model);
    if (model && (model.api ?? 'chat') !== 'chat') return sendError(res, wrongFormat(model.id, 'chat'));
    return handleChatCompletion(exchange);
  }
  sendError(res, errors.notFound(`${method} ${path}`));
}

function requestLogLine(index: number, method: string, path: string, res: http.ServerResponse, ms: number, notes: string[]): string {
  const status = res.headersSent ? String(res.statusCode) : 'reset';
  const ending = res.writableFinished ? '' : ' (closed before the end)';
  return [`#${index}`, method, path, status, `${ms}ms`, ...notes].join(' ') + ending;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops listening and drops every open connection, which also ends stalls and slow streams. */
function closeServer(server: http.Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const host = loopbackHost(options.host);
  const state = createState(options);
  const server = http.createServer((req, res) => {
    route(state, req, res, options.onRequestLog).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: { message: `Fake server bug: ${(error as Error).message}`, type: 'server_error' } });
    });
  });
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  return {
    url: baseUrl(host, port),
    port,
    requests: state.recorder.requests,
    enqueueReply: (reply) => void state.replyQueue.push(reply),
    enqueueFault: (fault: FaultSpec) => void state.faultQueue.push(parseFaultSpec(fault)),
    reset: () => resetState(state),
    close: () => closeServer(server),
    whenRequestClosed: (index) => state.recorder.whenClosed(index),
  };
}
