/**
 * OpenCode Go quota: parsing every status and malformed answers, the usage URL, fetching over real loopback
 * HTTP from the fake server's usage route (every error a reason, the key never in one), pacing, and the
 * sentences the status bar and a refused request show.
 */
import * as assert from 'assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { PRESET_URLS } from '../core/config/settings';
import { limitingWindow, parseGoUsage } from '../core/quota/goUsage';
import { fetchGoUsage, type FetchLike } from '../core/quota/quotaFetcher';
import { QuotaPacer } from '../core/quota/quotaPacer';
import { QuotaService, goUsageUrl } from '../core/quota/quotaService';
import { limitSentence, meter, quotaLines, quotaWarning } from '../core/quota/quotaText';
import { startFakeServer, type FakeServer } from '../fakeServer/server';
import { MemoryLogger } from './support/memoryLogger';

const KEY = 'sk-go-CANARY-5678';
const RESET = '2026-12-03T10:00:00Z';

function control(server: FakeServer, body: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${server.port}/_control/go-usage`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
}

describe('OpenCode Go quota: parsing', () => {
  it('reads every window and status, clamps percents, keeps only real dates', () => {
    const parsed = parseGoUsage({ usage: {
      rolling: { status: 'ok', percent: 12.5, resetsAt: RESET },
      weekly: { status: 'rate-limited', percent: 140, resetsAt: RESET },
      monthly: { status: 'paused', percent: -3, resetsAt: 'soon' },
    } });
    assert.ok(parsed.ok);
    assert.deepStrictEqual(parsed.windows, [
      { name: 'rolling', status: 'ok', percent: 12.5, resetsAt: RESET },
      { name: 'weekly', status: 'rate-limited', percent: 100, resetsAt: RESET },
      { name: 'monthly', status: 'unknown', percent: 0, resetsAt: undefined },
    ]);
    assert.strictEqual(limitingWindow(parsed.windows)?.name, 'weekly');
  });

  it('keeps the good windows of a partly malformed answer, and refuses one with none', () => {
    const partial = parseGoUsage({ usage: { rolling: { status: 'ok', percent: 'ten' }, weekly: { status: 'ok', percent: 5 } } });
    assert.ok(partial.ok && partial.windows.length === 1 && partial.windows[0].name === 'weekly');
    for (const [body, reason] of [
      [null, 'no "usage" object'], [[], 'no "usage" object'], [{ usage: [] }, 'no "usage" object'], [{ usage: {} }, 'names no quota window'],
      [{ usage: { rolling: 3 } }, '"rolling" is not an object'], [{ usage: { weekly: { percent: null } } }, '"weekly.percent" is not a number'],
    ] as const) {
      const parsed = parseGoUsage(body);
      assert.ok(!parsed.ok && parsed.reason.includes(reason), JSON.stringify(parsed));
    }
  });

  it('never throws on any JSON, and any window it returns is in range', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), fc.record({ usage: fc.dictionary(fc.constantFrom('rolling', 'weekly', 'monthly', 'daily'), fc.jsonValue()) })), (body) => {
      const parsed = parseGoUsage(body);
      if (parsed.ok) for (const w of parsed.windows) assert.ok(w.percent >= 0 && w.percent <= 100);
    }));
  });

  it('knows the Go usage URL only for OpenCode Go', () => {
    assert.strictEqual(goUsageUrl(PRESET_URLS.go), 'https://opencode.ai/zen/go/v1/usage');
    assert.strictEqual(goUsageUrl(PRESET_URLS.zen), undefined);
    assert.strictEqual(goUsageUrl('http://127.0.0.1:11434/v1'), undefined);
    assert.strictEqual(goUsageUrl('not a url'), undefined);
  });

  it('says which window stopped a request and when it resets; warns above 90%', () => {
    const quota = { state: 'known' as const, at: 0, windows: [
      { name: 'rolling' as const, status: 'ok' as const, percent: 91, resetsAt: RESET },
      { name: 'weekly' as const, status: 'rate-limited' as const, percent: 100, resetsAt: RESET },
    ] };
    assert.strictEqual(limitSentence(quota), 'Your OpenCode Go weekly usage limit is reached (100%); it resets 2026-12-03 10:00 UTC.');
    assert.ok(quotaWarning(quota)?.includes('rolling 91%'));
    assert.strictEqual(quotaWarning({ ...quota, windows: [{ ...quota.windows[0], percent: 90 }] }), undefined);
    assert.strictEqual(limitSentence({ state: 'unknown', reason: 'x', at: 0 }), undefined);
    assert.ok(quotaLines({ state: 'unknown', reason: 'network error', at: 0 })[0].includes('unknown (network error)'));
    assert.strictEqual(meter(41), '████░░░░░░');
  });
});

describe('OpenCode Go quota: fetching over loopback HTTP', () => {
  let server: FakeServer;
  let usageUrl: string;
  before(async () => {
    server = await startFakeServer({ requireKey: KEY });
    usageUrl = `${server.url}/usage`;
  });
  after(() => server.close());

  it('reads the three meters with the Bearer key, and the route is not recorded as a chat request', async () => {
    await control(server, { status: 200, body: { usage: { rolling: { status: 'ok', percent: 7, resetsAt: RESET } } } });
    const parsed = await fetchGoUsage(usageUrl, KEY);
    assert.deepStrictEqual(parsed, { ok: true, windows: [{ name: 'rolling', status: 'ok', percent: 7, resetsAt: RESET }] });
    const zen = await fetchGoUsage(`http://127.0.0.1:${server.port}/zen/go/v1/usage`, KEY);
    assert.ok(zen.ok);
    assert.strictEqual(server.requests.length, 0);
  });

  it('turns every failure into a reason without the key', async () => {
    const cases: [unknown, string, string?][] = [
      [{ status: 500, body: { error: 'x' } }, 'the endpoint failed (HTTP 500)'],
      [{ status: 429, body: {} }, 'asked too often (HTTP 429)'],
      [{ status: 200, raw: '{"usage": {' }, 'the answer is not JSON'],
      [{ status: 200, body: { usage: 'full' } }, 'no "usage" object'],
      [{ status: 200, body: {} }, 'refused the API key (HTTP 401)', 'wrong-key'],
    ];
    for (const [answer, reason, key] of cases) {
      await control(server, answer);
      const parsed = await fetchGoUsage(usageUrl, key ?? KEY);
      assert.ok(!parsed.ok && parsed.reason.includes(reason), JSON.stringify(parsed));
      assert.ok(!parsed.reason.includes(KEY));
    }
    const missing = await fetchGoUsage(`http://127.0.0.1:${server.port}/v2/usage`, KEY);
    assert.ok(!missing.ok && missing.reason.includes('404'));
  });

  it('gives up on a silent endpoint after the timeout, and names a refused connection', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const parsed = await fetchGoUsage(`http://127.0.0.1:${port}/usage`, KEY, undefined, 200);
      assert.ok(!parsed.ok && parsed.reason.includes('no answer within'), JSON.stringify(parsed));
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
    const refused = await fetchGoUsage(`http://127.0.0.1:${port}/usage`, KEY);
    assert.ok(!refused.ok && refused.reason.startsWith('network error'), JSON.stringify(refused));
  });

  it('fetches at most once a minute, backs off after failures, logs reasons without the key', async () => {
    let now = 1_000_000;
    let calls = 0;
    const counting: FetchLike = (url, init) => {
      calls++;
      return fetch(url, init);
    };
    const log = new MemoryLogger();
    const service = new QuotaService({ endpoint: async () => ({ baseUrl: server.url, apiKey: KEY }), log, fetch: counting, now: () => now, usageUrl: (base) => `${base}/usage` });
    const seen: string[] = [];
    service.onDidChange((q) => seen.push(q?.state ?? 'none'));
    await control(server, { status: 200, body: { usage: { weekly: { status: 'ok', percent: 50, resetsAt: RESET } } } });
    await Promise.all([service.refresh(), service.refresh()]);
    await service.refresh();
    assert.strictEqual(calls, 1);
    assert.strictEqual(service.current?.state, 'known');
    now += 60_000;
    await control(server, { status: 503, body: {} });
    await service.refresh();
    assert.strictEqual(calls, 2);
    assert.strictEqual(service.current?.state, 'unknown');
    now += 60_000;
    await service.refresh();
    assert.strictEqual(calls, 2, 'after a failure the wait doubles');
    now += 60_000;
    await service.refresh();
    assert.strictEqual(calls, 3);
    assert.deepStrictEqual(seen, ['known', 'unknown', 'unknown']);
    assert.ok(log.messages().every((l) => !l.includes(KEY)));
    assert.ok(log.messages('warn').some((l) => l.startsWith('[quota]') && l.includes('HTTP 503')));
  });

  it('asks nothing without a key or off OpenCode Go', async () => {
    let calls = 0;
    const never: FetchLike = () => {
      calls++;
      throw new Error('must not fetch');
    };
    await new QuotaService({ endpoint: async () => ({ baseUrl: PRESET_URLS.go }), log: new MemoryLogger(), fetch: never }).refresh();
    await new QuotaService({ endpoint: async () => ({ baseUrl: server.url, apiKey: KEY }), log: new MemoryLogger(), fetch: never }).refresh();
    assert.strictEqual(calls, 0);
  });

  it('pacer: never two starts within the minimum interval, whatever the sequence', () => {
    fc.assert(fc.property(fc.array(fc.record({ dt: fc.nat(200_000), ok: fc.boolean() }), { maxLength: 50 }), (events) => {
      const pacer = new QuotaPacer();
      let now = 0;
      let lastStart = -Infinity;
      for (const e of events) {
        now += e.dt;
        if (pacer.tryStart(now)) {
          assert.ok(now - lastStart >= 60_000);
          lastStart = now;
          if (e.ok) pacer.succeeded();
          else pacer.failed();
        }
      }
    }));
  });
});

describe('OpenCode Go quota: an answer of any size', () => {
  /** A loopback server that streams `total` bytes (honouring backpressure) and counts what it got to write before the client hung up. */
  async function streamingServer(status: number, total: number): Promise<{ url: string; written: () => number; close: () => void }> {
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const server = http.createServer((_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      let stopped = false;
      res.on('close', () => (stopped = true));
      const pump = (): void => {
        while (!stopped && written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!stopped) res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/usage`,
      written: () => written,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }

  const TOTAL = 256 * 1024 * 1024;
  for (const status of [200, 500]) {
    it(`HTTP ${status} with a 256 MB body: the status comes first and at most a bounded part is read`, async () => {
      const server = await streamingServer(status, TOTAL);
      try {
        const heapBefore = process.memoryUsage().heapUsed;
        const parsed = await fetchGoUsage(server.url, KEY);
        const grown = process.memoryUsage().heapUsed - heapBefore;
        assert.ok(!parsed.ok, JSON.stringify(parsed));
        assert.match(parsed.reason, status === 200 ? /larger than 64 KB/ : /HTTP 500/);
        // What the server could push into the socket buffers before the client let go: a few MB at most.
        assert.ok(server.written() < 32 * 1024 * 1024, `the server wrote ${server.written()} bytes before the client stopped reading`);
        assert.ok(grown < 32 * 1024 * 1024, `the heap grew by ${grown} bytes`);
      } finally {
        server.close();
      }
    });
  }
});
