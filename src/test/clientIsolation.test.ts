/**
 * The SDKs read many environment variables (base URL, organisation, project, custom headers
 * that can replace Authorization, log level, tracing). With them all set to hostile values, a request over
 * real HTTP to a loopback recorder carries only the headers this extension decides, and nothing goes to the
 * base URL the environment names.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import OpenAI from 'openai';
import { routeById } from '../core/routes/registry/registry';
import { clientFor } from '../core/request/chatTransport';
import { openAIClientOptions } from '../core/request/chatTransport';
import { streamRoute } from '../core/request/routeTransport';
import { sendRoute } from '../core/routes/requestParts';

const LEAK = 'LEAKED-FROM-ENV';
const HOSTILE_ENV: Record<string, string> = {
  OPENAI_API_KEY: `sk-${LEAK}-1`,
  OPENAI_ADMIN_KEY: `sk-${LEAK}-2`,
  OPENAI_ORG_ID: `org-${LEAK}`,
  OPENAI_PROJECT_ID: `proj-${LEAK}`,
  OPENAI_WEBHOOK_SECRET: LEAK,
  OPENAI_CUSTOM_HEADERS: `Authorization: Bearer ${LEAK}\nX-Third-Party-Auth: ${LEAK}\nx-opencode-session: ${LEAK}`,
  OPENAI_LOG: 'debug',
  ANTHROPIC_API_KEY: `sk-ant-${LEAK}`,
  ANTHROPIC_AUTH_TOKEN: LEAK,
  ANTHROPIC_CUSTOM_HEADERS: `x-api-key: ${LEAK}\nAuthorization: Bearer ${LEAK}\nX-Third-Party-Auth: ${LEAK}`,
  ANTHROPIC_LOG: 'debug',
  ANTHROPIC_OPEN_TELEMETRY: 'true',
  ANTHROPIC_OPEN_TELEMETRY_PROPAGATION: 'true',
  ANTHROPIC_WEBHOOK_SIGNING_KEY: LEAK,
};

interface Recorder {
  url: string;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function recorder(reply: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => reply(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const sse = (_req: http.IncomingMessage, res: http.ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end('data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
};
const json = (_req: http.IncomingMessage, res: http.ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"data":[]}');
};

/** Runs `body` against a fresh loopback recorder and closes the recorder whatever happens. */
async function withRecorder(reply: (req: http.IncomingMessage, res: http.ServerResponse) => void, body: (server: Recorder) => Promise<void>): Promise<void> {
  const server = await recorder(reply);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

function leaksIn(headers: http.IncomingHttpHeaders): string[] {
  return Object.entries(headers)
    .filter(([name, value]) => String(value).includes(LEAK) || /organization|project|third-party|traceparent|baggage/i.test(name))
    .map(([name, value]) => `${name}: ${String(value)}`);
}

describe('client isolation: environment variables never reach the endpoint', function () {
  this.timeout(15_000);
  const saved: Record<string, string | undefined> = {};
  let decoy: Recorder;
  let consoleLines: string[];
  const savedConsole = { ...console };

  before(async () => {
    decoy = await recorder(json);
    for (const [name, value] of Object.entries(HOSTILE_ENV)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    process.env.OPENAI_BASE_URL = `${decoy.url}/v1`;
    process.env.ANTHROPIC_BASE_URL = decoy.url;
  });
  beforeEach(() => {
    consoleLines = [];
    for (const m of ['log', 'info', 'warn', 'error', 'debug'] as const) console[m] = (...args: unknown[]) => void consoleLines.push(args.map(String).join(' '));
  });
  afterEach(() => Object.assign(console, savedConsole));
  /** Nothing went to the base URL the environment names, and the SDKs' debug logging printed nothing. */
  const assertNothingEscaped = (): void => {
    assert.strictEqual(decoy.requests.length, 0, 'nothing went to OPENAI_BASE_URL');
    assert.deepStrictEqual(consoleLines, [], 'OPENAI_LOG=debug printed nothing');
  };
  after(async () => {
    for (const name of [...Object.keys(HOSTILE_ENV), 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL']) {
      const value = name in saved ? saved[name] : undefined;
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await decoy.close();
  });

  it('env-isolation-openai: a streamed chat request sends only our key and our headers', async () => {
    await withRecorder(sse, async (server) => {
      const frames = [];
      const endpoint = { baseUrl: `${server.url}/v1`, apiKey: 'sk-ours-123456' };
      const signal = new AbortController().signal;
      const route = routeById('chat');
      const body = { model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] };
      const options = { route, body, sessionId: 'ses_ours', requestId: 'req_ours', signal, idleTimeoutMs: 5_000, expectUsage: true };
      for await (const frame of streamRoute(endpoint, options, route.newReader())) frames.push(frame);
      await clientFor(endpoint).get('/models');
      assert.ok(frames.length > 0);
      assert.strictEqual(server.requests.length, 2);
      for (const request of server.requests) {
        assert.deepStrictEqual(leaksIn(request.headers), []);
        assert.strictEqual(request.headers.authorization, 'Bearer sk-ours-123456');
      }
      assert.strictEqual(server.requests[0].headers['x-opencode-session'], 'ses_ours');
      assertNothingEscaped();
    });
  });

  it('env-isolation-routes: every route sends the key only where it reads it, and nothing the environment or the SDK adds', async () => {
    await withRecorder(sse, async (server) => {
      const client = clientFor({ baseUrl: `${server.url}/v1`, apiKey: 'sk-ours-123456' });
      const headers = { sessionId: 'ses_ours', requestId: 'req_ours', client: 'test/1' };
      const keyHeaders = { chat: 'authorization', responses: 'authorization', messages: 'x-api-key', gemini: 'x-goog-api-key' } as const;
      const ids = Object.keys(keyHeaders) as (keyof typeof keyHeaders)[];
      for (const id of ids) {
        const response = await sendRoute(client, { route: routeById(id), body: { model: 'm' }, headers, modelId: 'm' });
        await response.text();
      }
      assert.strictEqual(server.requests.length, ids.length);
      for (const [i, request] of server.requests.entries()) {
        assert.deepStrictEqual(leaksIn(request.headers), []);
        const names = Object.keys(request.headers).sort();
        const keyHeader = keyHeaders[ids[i]];
        const expected = ['accept', 'connection', 'content-length', 'content-type', 'host', keyHeader, 'user-agent', 'x-opencode-client', 'x-opencode-request', 'x-opencode-session'];
        if (ids[i] === 'messages') expected.push('anthropic-version');
        assert.deepStrictEqual(names.filter((n) => n !== 'accept-encoding' && n !== 'accept-language' && n !== 'sec-fetch-mode'), expected.sort(), `route #${i} sends exactly these headers`);
        assert.strictEqual(request.headers[keyHeader], keyHeader === 'authorization' ? 'Bearer sk-ours-123456' : 'sk-ours-123456');
      }
      assertNothingEscaped();
    });
  });

  it('a loopback endpoint without a key gets no key header at all', async () => {
    await withRecorder(json, async (server) => {
      await clientFor({ baseUrl: `${server.url}/v1`, apiKey: undefined }).get('/models');
      const headers = server.requests[0].headers;
      assert.deepStrictEqual(leaksIn(headers), []);
      assert.strictEqual(headers.authorization, undefined);
      assert.strictEqual(headers['x-api-key'], undefined);
    });
  });

  it('refuses a URL outside the configured base URL', async () => {
    const client = new OpenAI(openAIClientOptions(`${decoy.url}/v1`, 'sk-ours-123456'));
    const error = await client.get(`${decoy.url.replace('127.0.0.1', 'localhost')}/elsewhere`).then(() => undefined, (e: Error) => e);
    assert.match(String((error?.cause as Error | undefined)?.message), /outside the configured endpoint/);
    assert.strictEqual(decoy.requests.length, 0);
  });
});
