/**
 * Redirects over real HTTP (core/request/chatTransport.ts, "Redirects"): two loopback servers, the endpoint answering 307 with a
 * Location on the other one. On every route (chat, responses, messages, gemini) and the model list, the other
 * server receives nothing — no key, no body — and the request fails with an error naming which URL redirected
 * where. A redirect inside the base URL is still followed, with the body and the key, a bounded number of times.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { APIConnectionError } from 'openai';
import { clientFor, MAX_REDIRECTS, RedirectRefusedError, refusedRedirectOf } from '../core/request/chatTransport';
import { failureClass } from '../core/request/retryPolicy';
import { toUserFacingError } from '../core/request/userFacingError';
import { routeById } from '../core/routes/registry/registry';
import { ROUTE_IDS } from '../core/routeId';
import { sendRoute } from '../core/routes/requestParts';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Loopback {
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

type Reply = (req: Seen, res: http.ServerResponse) => void;

async function loopback(reply: Reply): Promise<Loopback> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      reply(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const redirectTo = (location: (req: Seen) => string, status = 307): Reply => (req, res) => {
  res.writeHead(status, { location: location(req), 'content-type': 'text/plain' });
  res.end('moved');
};
const sseOk: Reply = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end('data: {"ok":true}\n\n');
};

const KEY = 'sk-redirect-test-123456';
const headers = { sessionId: 'ses_r', requestId: 'req_r', client: 'test/1' };
const BODY = { model: 'm', marker: 'CONVERSATION-TEXT' };

describe('redirects: nothing reaches a host the user did not configure', function () {
  this.timeout(15_000);
  let other: Loopback;
  let endpoint: Loopback;
  beforeEach(async () => {
    other = await loopback(sseOk);
  });
  afterEach(async () => {
    await other.close();
    await endpoint?.close();
  });

  for (const id of ROUTE_IDS) {
    it(`${id}: a 307 to another origin fails naming both URLs; the other server receives nothing`, async () => {
      endpoint = await loopback(redirectTo((req) => `${other.origin}${req.url}`));
      const baseUrl = `${endpoint.origin}/v1`;
      const error = await sendRoute(clientFor({ baseUrl, apiKey: KEY }), { route: routeById(id), body: BODY, headers, modelId: 'm' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.strictEqual(other.seen.length, 0, 'the other origin received no request');
      assert.strictEqual(endpoint.seen.length, 1);
      assert.ok(error instanceof APIConnectionError, String(error));
      const refused = refusedRedirectOf(error);
      assert.ok(refused instanceof RedirectRefusedError);
      assert.strictEqual(refused.reason, 'outside');
      assert.ok(refused.from.startsWith(baseUrl) && refused.to.startsWith(other.origin), refused.message);
      assert.strictEqual(failureClass(error), 'final', 'never retried');
      const shown = toUserFacingError(error, { baseUrl, model: 'm', apiKey: KEY });
      assert.match(shown.message, new RegExp(`${endpoint.origin}/v1/\\S+ redirected to ${other.origin}/\\S+, outside the configured endpoint`));
      assert.ok(!shown.message.includes(KEY) && !shown.detail.includes(KEY));
    });
  }

  it('the model list: a redirect to another origin is refused too', async () => {
    endpoint = await loopback(redirectTo(() => `${other.origin}/v1/models`, 302));
    const error = await clientFor({ baseUrl: `${endpoint.origin}/v1`, apiKey: KEY }).get('/models').then(() => undefined, (e: unknown) => e);
    assert.ok(refusedRedirectOf(error), String(error));
    assert.strictEqual(other.seen.length, 0);
  });

  it('the same origin but outside the base path is refused (the base URL is what the user configured)', async () => {
    endpoint = await loopback(redirectTo(() => '/elsewhere/chat/completions'));
    const error = await sendRoute(clientFor({ baseUrl: `${endpoint.origin}/v1`, apiKey: KEY }), { route: routeById('chat'), body: BODY, headers }).then(() => undefined, (e: unknown) => e);
    assert.strictEqual(refusedRedirectOf(error)?.reason, 'outside');
    assert.strictEqual(endpoint.seen.length, 1, 'the redirect target was not requested');
  });

  it('a 307 inside the base URL is followed with the same body and the key', async () => {
    endpoint = await loopback((req, res) => (req.url.startsWith('/v1/moved/') ? sseOk(req, res) : redirectTo((r) => r.url.replace('/v1/', '/v1/moved/'))(req, res)));
    const response = await sendRoute(clientFor({ baseUrl: `${endpoint.origin}/v1`, apiKey: KEY }), { route: routeById('messages'), body: BODY, headers });
    assert.strictEqual(await response.text(), 'data: {"ok":true}\n\n');
    assert.deepStrictEqual(endpoint.seen.map((s) => [s.method, s.url]), [['POST', '/v1/messages'], ['POST', '/v1/moved/messages']]);
    assert.strictEqual(endpoint.seen[1].body, endpoint.seen[0].body);
    assert.ok(endpoint.seen[1].body.includes('CONVERSATION-TEXT'));
    assert.strictEqual(endpoint.seen[1].headers['x-api-key'], KEY);
  });

  it(`a redirect loop inside the base URL stops after ${MAX_REDIRECTS} hops`, async () => {
    endpoint = await loopback(redirectTo((req) => `${req.url}x`));
    const error = await sendRoute(clientFor({ baseUrl: `${endpoint.origin}/v1`, apiKey: KEY }), { route: routeById('chat'), body: BODY, headers }).then(() => undefined, (e: unknown) => e);
    assert.strictEqual(refusedRedirectOf(error)?.reason, 'too-many');
    assert.strictEqual(endpoint.seen.length, MAX_REDIRECTS + 1);
  });

  it('a 303 inside the base URL becomes a GET without the body', async () => {
    endpoint = await loopback((req, res) => (req.method === 'GET' ? sseOk(req, res) : redirectTo(() => '/v1/result', 303)(req, res)));
    const response = await sendRoute(clientFor({ baseUrl: `${endpoint.origin}/v1`, apiKey: KEY }), { route: routeById('chat'), body: BODY, headers });
    await response.text();
    assert.deepStrictEqual(endpoint.seen.map((s) => [s.method, s.url, s.body]), [['POST', '/v1/chat/completions', JSON.stringify(BODY)], ['GET', '/v1/result', '']]);
  });
});
