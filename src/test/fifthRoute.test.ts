/**
 * Adding a fifth route is one folder and one registry row (issue 30): a made-up wire (support/echoRoute/, not shipped)
 * is added as one row to the shipped registry the engine takes as a value, a model names it (the endpoint's /models
 * `api`), and a real chat request through the real engine, over real HTTP to a loopback server speaking that wire,
 * returns its text and usage and logs the `[usage]` line — with no product file edited for it.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { resolveSettings } from '../core/config/settings';
import { ChatEngine } from '../core/request/chatEngine';
import { SHIPPED_ROUTES } from '../core/routes/registry/registry';
import type { StreamEvent } from '../core/types';
import { MemoryStore } from './support/engineHarness';
import { ECHO_ROUTE_ID, echoRoute } from './support/echoRoute/echoRoute';
import { MemoryLogger } from './support/memoryLogger';

/** The echo wire's server: `POST /v1/echo` answers the prompt back in two SSE lines, then its usage. */
function echoServer(seen: Record<string, unknown>[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/echo') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as { prompt: string };
      seen.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const line = (value: object) => res.write(`data: ${JSON.stringify(value)}\n\n`);
      line({ text: 'echo: ' });
      line({ text: body.prompt });
      line({ usage: { input: 120, cached: 30, output: 7 }, done: true });
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('a fifth route is one folder and one registry row', () => {
  let server: http.Server;
  const seen: Record<string, unknown>[] = [];
  before(async () => (server = await echoServer(seen)));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a chat request on the added route returns its text and usage, and logs [usage]', async () => {
    const routes = new Map([...SHIPPED_ROUTES, [ECHO_ROUTE_ID, echoRoute]]); // the one row
    const log = new MemoryLogger();
    const values: Record<string, unknown> = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
    const settings = resolveSettings((key) => values[key], (m) => log.warn(`[settings] ${m}`));
    const engine = new ChatEngine({ log, store: new MemoryStore(), settings: () => settings, apiKey: async () => undefined, timing: { stateWriteDelayMs: 0 }, routes });
    const events: StreamEvent[] = [];
    const listed = { contextWindow: 100_000, maxOutputTokens: 1_000, api: ECHO_ROUTE_ID }; // the endpoint names the model's route
    const messages = [{ role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hello fifth route' }] }];
    const outcome = await engine.run({ purpose: 'conversation', modelId: 'echo-1', messages, tools: [] }, listed, (e) => events.push(e), new AbortController().signal);

    assert.deepStrictEqual(seen, [{ model: 'echo-1', stream: true, prompt: 'hello fifth route' }], 'the route built its own body and posted it to its own path');
    assert.strictEqual(events.map((e) => (e.kind === 'text' ? e.text : '')).join(''), 'echo: hello fifth route');
    assert.strictEqual(outcome.prepared.route.id, ECHO_ROUTE_ID);
    const usage = events.find((e) => e.kind === 'usage');
    assert.deepStrictEqual(usage && usage.kind === 'usage' && usage.usage, { shape: 'openai', contextTokens: 120, cachedTokens: 30, cacheWriteTokens: 0, completionTokens: 7, totalTokens: 127 });
    const lines = log.lines.filter((l) => l.message.startsWith('[usage]')).map((l) => l.message);
    assert.deepStrictEqual(lines, ['[usage] prompt=120 completion=7 total=127 cached=30 cacheHit=25.0%']);
  });

  it('the shipped registry is unchanged by it', () => {
    assert.deepStrictEqual([...SHIPPED_ROUTES.keys()], ['chat', 'responses', 'messages', 'gemini']);
  });
});
