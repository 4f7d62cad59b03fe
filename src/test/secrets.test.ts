/**
 * The API key never appears in a log line, an error message or stack, a recorded request file or the
 * console — on every error path. A recognisable key is stored, every fault is provoked, then all output is
 * searched. The key lives in SecretStorage (or OPENCODE_API_KEY), never in settings.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { FAULT_NAMES, startFakeServer, type FakeServer, type FaultSpec } from '../fakeServer';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user, type ActivatedExtension } from './support/activatedExtension';
import { providerWithTiming } from './support/providerHarness';

const CANARY = 'sk-CANARY-7f3a9c1e5b2d46800000';
const CANARY_MARK = 'CANARY-7f3a9c1e';
const MODEL = { id: 'fake-large', name: 'fake-large', family: 'x', version: '1', maxInputTokens: 10_000, maxOutputTokens: 1_000, capabilities: {} };

/** Everything an error exposes: message, stack, and its cause chain. */
function errorText(error: unknown): string {
  const out: string[] = [];
  for (let e = error, depth = 0; e !== undefined && depth < 5; depth++) {
    out.push(e instanceof Error ? `${e.message}\n${e.stack ?? ''}\n${JSON.stringify(e)}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return out.join('\n');
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

async function closedPortUrl(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

/** Collects console output while the test runs (the SDK and Node may print there). */
function captureConsole(): { text(): string; restore(): void } {
  const lines: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) console[m] = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  return { text: () => lines.join('\n'), restore: () => methods.forEach((m, i) => (console[m] = saved[i])) };
}

describe('secrets: the API key never leaks', function () {
  this.timeout(30_000);
  let server: FakeServer;
  const savedEnv = process.env.OPENCODE_API_KEY;
  before(async () => {
    delete process.env.OPENCODE_API_KEY;
    server = await startFakeServer();
  });
  after(async () => {
    if (savedEnv !== undefined) process.env.OPENCODE_API_KEY = savedEnv;
    await server.close();
  });

  it('on every fault, a 401, a closed port, a missing model, an idle timeout and a cancellation', async () => {
    const consoleOut = captureConsole();
    const thrown: string[] = [];
    const logs: string[] = [];
    const files: string[] = [];
    const collect = (ext: ActivatedExtension): void => {
      logs.push(ext.log.text());
      for (const file of filesUnder(ext.logDir)) files.push(fs.readFileSync(file, 'utf8'));
    };
    const attempt = async (ext: ActivatedExtension, run: () => unknown): Promise<void> => {
      await ext.context.secrets.store('opencode.apiKey', CANARY);
      await Promise.resolve().then(run).catch((error: unknown) => void thrown.push(errorText(error)));
    };
    const respond = (ext: ActivatedExtension, id = 'fake-large', token = new double.CancellationTokenSource().token) =>
      ext.provider.provideLanguageModelChatResponse({ ...MODEL, id }, [user('secret test')], { toolMode: 1 } as never, { report: () => undefined }, token as never);
    try {
      const ext = providerWithTiming(server, { recordRequests: true, maxRetries: 1 });
      try {
        for (const name of FAULT_NAMES) {
          const spec: FaultSpec = name === 'stall' || name === 'empty-deltas' ? { name, ms: 50 } : name === 'status-429' ? { name, seconds: 0 } : { name };
          server.enqueueFault(spec);
          server.enqueueFault(spec); // the retry fails too, so every error path ends in an error
          await attempt(ext, () => ask(ext, 'fake-large', [user(`fault ${name}`)]));
          server.reset();
        }
        await attempt(ext, () => respond(ext, 'retired-model'));
        const source = new double.CancellationTokenSource();
        server.enqueueReply({ text: 'x'.repeat(200), chunkSize: 4, delayMsBetweenChunks: 10 });
        await attempt(ext, () => ask(ext, 'fake-large', [user('cancel me')], {}, source.token as never, () => source.cancel()));
        assert.ok(server.requests.some((r) => r.headers.authorization === `Bearer ${CANARY}`), 'the key really was sent');
        collect(ext);
      } finally {
        ext.dispose();
      }

      const locked = await startFakeServer({ requireKey: 'sk-the-right-one' });
      const wrongKey = activateAgainst(locked, { recordRequests: true });
      await attempt(wrongKey, () => respond(wrongKey));
      collect(wrongKey);
      wrongKey.dispose();
      await locked.close();

      const closed = activateAgainst({ url: await closedPortUrl() }, { maxRetries: 0 });
      await attempt(closed, () => closed.provider.provideLanguageModelChatInformation({ silent: false }, new double.CancellationTokenSource().token as never));
      await attempt(closed, () => respond(closed));
      collect(closed);
      closed.dispose();

      const stalled = providerWithTiming(server, {}, { idleTimeoutMs: 300 });
      server.enqueueFault({ name: 'stall', ms: 10_000 });
      server.enqueueReply({ reasoning: 'thinking first' });
      await attempt(stalled, () => respond(stalled));
      collect(stalled);
      stalled.dispose();
    } finally {
      consoleOut.restore();
    }
    // Faults that only reshape a good answer (stall of 50 ms, malformed chunk, no-done, …) throw nothing.
    assert.ok(thrown.length >= 14, `errors were provoked (${thrown.length})`);
    for (const [what, text] of [['thrown errors', thrown.join('\n')], ['log lines', logs.join('\n')], ['log-folder files', files.join('\n')], ['console', consoleOut.text()]]) {
      assert.ok(!text.includes(CANARY_MARK), `the key appears in ${what}`);
    }
    assert.ok(files.length > 0, 'request files were recorded and searched');
  });

  it('is read from SecretStorage only: a key put into settings is ignored', async () => {
    const ext = activateAgainst({ url: 'https://example.invalid/v1' }, { apiKey: CANARY, key: CANARY });
    try {
      const error = await ext.provider
        .provideLanguageModelChatResponse(MODEL, [user('hi')], { toolMode: 1 } as never, { report: () => undefined }, new double.CancellationTokenSource().token as never)
        .then(() => undefined, (e: Error) => e);
      assert.match(String(error?.message), /^No OpenCode API key is set for https:\/\/example\.invalid\/v1\./);
      const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
      const settingNames = Object.keys(manifest.contributes.configuration.properties);
      assert.deepStrictEqual(settingNames.filter((name) => /key|token|secret|password/i.test(name) && !/Tokens$/.test(name)), []);
    } finally {
      ext.dispose();
    }
  });

  it('warns about plain HTTP to a remote host, and only then', () => {
    const warned = (url: string): boolean => {
      const ext = activateAgainst({ url });
      try {
        return ext.log.lines.some((l) => l.level === 'warn' && l.message.includes('is plain HTTP to a remote host'));
      } finally {
        ext.dispose();
      }
    };
    assert.deepStrictEqual(
      ['http://example.com/v1', 'http://10.0.0.7:8000/v1', 'https://example.com/v1', 'http://127.0.0.1:11434/v1', 'http://localhost:8000/v1', 'http://[::1]:8000/v1'].map(warned),
      [true, true, false, false, false, false],
    );
  });

  it('every plain-http endpoint warns once: opencode.endpoints items as well as opencode.baseUrl, again after a settings change only for a new URL', () => {
    const endpoints = [
      { id: 'remote', baseUrl: 'http://gw.example/v1' },
      { id: 'lan', baseUrl: 'http://10.0.0.7:8000/v1' },
      { id: 'local', baseUrl: 'http://127.0.0.1:9/v1' },
      { id: 'safe', baseUrl: 'https://safe.example/v1' },
    ];
    const ext = activateAgainst({ url: 'http://example.com/v1' }, { endpoints });
    try {
      const warnings = () => ext.log.lines.filter((l) => l.level === 'warn' && l.message.includes('is plain HTTP to a remote host')).map((l) => l.message.split(' is plain')[0]);
      assert.deepStrictEqual(warnings(), ['[settings] opencode.baseUrl http://example.com/v1', '[settings] opencode.endpoints "remote" http://gw.example/v1', '[settings] opencode.endpoints "lan" http://10.0.0.7:8000/v1']);
      double.setSetting('endpoints', [...endpoints, { id: 'more', baseUrl: 'http://more.example/v1' }]);
      assert.deepStrictEqual(warnings().slice(3), ['[settings] opencode.endpoints "more" http://more.example/v1'], 'the ones said before are not said again');
    } finally {
      ext.dispose();
    }
  });
});
