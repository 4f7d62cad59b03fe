/** Live model data against a loopback stand-in for models.dev: newer data wins; bad, huge or slow answers change nothing. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { LiveModelData, STORE_KEY, type LiveOptions } from '../core/models/liveModelData';
import { ModelTable } from '../core/models/modelTable';
import { SNAPSHOT } from '../core/models/data/snapshot';
import { SAVED_COPY } from '../tools/snapshotUpdate';
import { MemoryLogger } from './support/memoryLogger';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

class MemoryStore {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): void {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

/** The saved models.dev copy with one model changed: what a newer catalogue looks like. */
function newerCatalogue(window: number): string {
  const api = JSON.parse(fs.readFileSync(SAVED_COPY, 'utf8'));
  api.opencode.models['gpt-5.5'].limit.context = window;
  api.opencode.models['gpt-7-nova'] = { id: 'gpt-7-nova', name: 'GPT-7 Nova', reasoning: true, reasoning_options: [{ type: 'effort', values: ['low', 'high'] }], limit: { context: 2_000_000, output: 100_000 }, cost: { input: 3, output: 12 }, provider: { npm: '@ai-sdk/openai' } };
  api.other = { models: { x: {} } };
  return JSON.stringify(api);
}

describe('live model data (loopback stand-in for models.dev)', () => {
  let server: http.Server;
  let url = '';
  let handler: Handler = (_req, res) => res.end('{}');
  const seen: http.IncomingHttpHeaders[] = [];
  let now = Date.parse('2027-03-01T10:00:00Z');

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.json`;
  });
  after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  beforeEach(() => {
    seen.length = 0;
    now += 2 * 24 * 60 * 60 * 1000;
  });

  const setup = (options: Partial<LiveOptions> = {}, store = new MemoryStore()) => {
    const table = new ModelTable();
    const log = new MemoryLogger();
    const live = new LiveModelData(store, table, log, { url, maxBytes: 4 * 1024 * 1024, timeoutMs: 1_000, userAgent: 'opencode-chat-provider/test', now: () => now, ...options });
    live.load();
    return { table, log, live, store };
  };
  const window = (table: ModelTable, id = 'gpt-5.5') => table.lookup({ modelId: id, catalog: 'zen' }).contextWindow;

  it('newer data wins over the snapshot, is kept, and the next day\'s request is conditional (304 keeps it)', async () => {
    const body = newerCatalogue(1_234_567);
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'last-modified': 'Mon, 01 Mar 2027 08:00:00 GMT' }).end(body);
    const { table, live, store, log } = setup();
    assert.strictEqual(window(table), SNAPSHOT.zen['gpt-5.5'].contextWindow);
    assert.strictEqual(await live.refreshIfDue(), 'updated');
    assert.strictEqual(window(table), 1_234_567);
    assert.deepStrictEqual([table.lookup({ modelId: 'gpt-7-nova', catalog: 'zen' }).route, window(table, 'gpt-7-nova')], ['responses', 2_000_000]);
    assert.strictEqual(seen[0]['user-agent'], 'opencode-chat-provider/test');
    assert.strictEqual(seen[0].authorization, undefined, 'nothing about the user is sent');
    assert.ok(!JSON.stringify(store.get(STORE_KEY)).includes('"other"'), 'only the two OpenCode providers are stored');
    assert.strictEqual(await live.refreshIfDue(), 'not-due', 'at most once a day');
    assert.strictEqual(seen.length, 1);
    // A restart: the stored copy applies at once, without the network.
    const again = setup({}, store);
    assert.strictEqual(window(again.table), 1_234_567);
    now += 25 * 60 * 60 * 1000;
    handler = (_req, res) => res.writeHead(304).end();
    assert.strictEqual(await again.live.refreshIfDue(), 'unchanged');
    assert.strictEqual(seen.at(-1)?.['if-none-match'], '"v1"');
    assert.strictEqual(seen.at(-1)?.['if-modified-since'], 'Mon, 01 Mar 2027 08:00:00 GMT');
    assert.strictEqual(window(again.table), 1_234_567);
    assert.deepStrictEqual(log.lines.filter((l) => l.level === 'warn'), []);
  });

  it('a new answer with the same models is no change: VS Code is told only when a fact changed', async () => {
    const body = newerCatalogue(1_111_111);
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    const { live } = setup();
    assert.strictEqual(await live.refreshIfDue(), 'updated');
    now += 25 * 60 * 60 * 1000;
    assert.strictEqual(await live.refreshIfDue(), 'unchanged', 'the same catalogue again, without validators');
    now += 25 * 60 * 60 * 1000;
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(newerCatalogue(1_222_222));
    assert.strictEqual(await live.refreshIfDue(), 'updated');
  });

  const failures: [string, Handler, RegExp][] = [
    ['not JSON', (_req, res) => res.end('<html>oops'), /not updated/],
    ['JSON without the OpenCode providers', (_req, res) => res.end('{"openai":{"models":{}}}'), /not usable/],
    ['a 500', (_req, res) => res.writeHead(500).end('{}'), /HTTP 500/],
    ['huge (declared)', (_req, res) => res.writeHead(200, { 'content-length': String(8 * 1024 * 1024) }).end(), /more than/],
    ['huge (streamed without a length)', (_req, res) => {
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const push = (): void => {
        while (sent < 100 && res.write(chunk)) sent++;
        if (sent < 100) res.once('drain', push);
        else res.end();
      };
      push();
    }, /more than/],
    ['slow (never answers in time)', () => undefined, /abort|timeout/i],
  ];
  for (const [what, answer, line] of failures) {
    it(`${what}: nothing changes, one line is logged`, async () => {
      handler = (_req, res) => res.writeHead(200, { etag: '"good"' }).end(newerCatalogue(777_777));
      const { table, live, store, log } = setup();
      await live.refreshIfDue();
      const kept = JSON.stringify(store.get(STORE_KEY));
      now += 25 * 60 * 60 * 1000;
      handler = answer;
      assert.strictEqual(await live.refreshIfDue(), 'failed');
      assert.strictEqual(window(table), 777_777, 'the last good copy stays in force');
      const warnings = log.lines.filter((l) => l.level === 'warn');
      assert.strictEqual(warnings.length, 1);
      assert.match(warnings[0].message, line);
      assert.match(warnings[0].message, /keeping the copy of/);
      assert.strictEqual(JSON.stringify((store.get(STORE_KEY) as { raw: unknown }).raw), JSON.stringify(JSON.parse(kept).raw));
    });
  }

  it('with nothing stored, a failure keeps the snapshot; a stored copy older than the snapshot is not used', async () => {
    handler = (_req, res) => res.end('nope');
    const { table, live } = setup();
    assert.strictEqual(await live.refreshIfDue(), 'failed');
    assert.strictEqual(table.liveDate, undefined);
    const store = new MemoryStore();
    store.update(STORE_KEY, { checkedAt: now, date: '2000-01-01', raw: JSON.parse(newerCatalogue(5)) });
    assert.strictEqual(window(setup({}, store).table), SNAPSHOT.zen['gpt-5.5'].contextWindow);
    store.update(STORE_KEY, { checkedAt: 'garbage' });
    assert.strictEqual(setup({}, store).table.liveDate, undefined, 'a malformed record is dropped');
  });
});
