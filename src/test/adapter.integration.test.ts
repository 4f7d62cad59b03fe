/** Adapter behaviour a user notices: cached model list, live settings, recorded requests, the key. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startFakeServer, type FakeServer } from '../fakeServer';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user, type ActivatedExtension } from './support/activatedExtension';

const token = () => new double.CancellationTokenSource().token as never;

interface Activation {
  /** Stored in SecretStorage before `body` runs. */
  key?: string;
  settings?: Record<string, unknown>;
  state?: double.MemoryMemento;
}

/** Runs `body` on the extension activated against `target`, and disposes the extension whatever happens. */
async function withExtension(target: FakeServer | { url: string }, activation: Activation, body: (ext: ActivatedExtension) => Promise<void>): Promise<void> {
  const ext = activateAgainst(target, activation.settings, activation.state);
  try {
    if (activation.key) await ext.context.secrets.store('opencode.apiKey', activation.key);
    await body(ext);
  } finally {
    ext.dispose();
  }
}

/** The same on a fresh fake server that takes any key, closed afterwards. */
async function withOpenServer(settings: Record<string, unknown>, body: (ext: ActivatedExtension, open: FakeServer) => Promise<void>): Promise<void> {
  const open = await startFakeServer();
  try {
    await withExtension(open, { settings }, (ext) => body(ext, open));
  } finally {
    await open.close();
  }
}

describe('adapter', () => {
  let server: FakeServer;
  before(async () => {
    server = await startFakeServer({ requireKey: 'sk-test-CANARY-1234' });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  it('lists models once from the network, then from the cache (globalState) — also after a restart', async () => {
    const state = new double.MemoryMemento();
    await withExtension(server, { key: 'sk-test-CANARY-1234', state }, async (first) => {
      await first.provider.provideLanguageModelChatInformation({ silent: true }, token());
      await first.provider.provideLanguageModelChatInformation({ silent: false }, token());
    });
    await withExtension(server, { state }, async (second) => {
      const models = await second.provider.provideLanguageModelChatInformation({ silent: true }, token());
      assert.deepStrictEqual(models?.map((m) => m.id), ['fake-large', 'fake-limited', 'fake-messages', 'fake-native-gemini', 'fake-responses', 'fake-small', 'fake-vision', 'gpt-5.4-mini']);
      assert.strictEqual(server.requests.filter((r) => r.path.endsWith('/models')).length, 1, 'the picker did not wait on the network again');
    });
  });

  it('sends the stored key as a Bearer token and never writes it to the log', async () => {
    await withExtension(server, { key: 'sk-test-CANARY-1234' }, async (ext) => {
      await ask(ext, 'fake-large', [user('hello')]);
      const chatRequest = server.requests.find((r) => r.path.endsWith('/chat/completions'));
      assert.strictEqual(chatRequest?.headers.authorization, 'Bearer sk-test-CANARY-1234');
      assert.ok(!ext.log.text().includes('CANARY'));
    });
  });

  it('turns a rejected key into a sentence that says what to do, without the key in it', async () => {
    await withExtension(server, { key: 'sk-wrong-CANARY-9999' }, async (ext) => {
      const model = { id: 'fake-large', name: 'fake-large', family: 'x', version: '1', maxInputTokens: 1_000, maxOutputTokens: 100, capabilities: {} };
      await assert.rejects(
        async () => ext.provider.provideLanguageModelChatResponse(model, [user('hi')], { toolMode: 1 } as never, { report: () => undefined }, token()),
        (error: Error) => /rejected the API key \(HTTP 401\)\. Run the command "OpenCode: Set API Key"/.test(error.message) && !error.message.includes('CANARY'),
      );
      assert.ok(!ext.log.text().includes('CANARY'));
    });
  });

  it('re-reads settings when they change: a new trim budget applies to the next request', async () => {
    await withOpenServer({}, async (ext, open) => {
      const history = [user(`start ${'word '.repeat(3_000)}`), ...Array.from({ length: 20 }, (_, i) => user(`turn ${i} ${'more words '.repeat(300)}`))];
      await ask(ext, 'fake-large', history);
      assert.strictEqual(open.requests.at(-1)?.body.messages.length, 21);
      double.setSetting('maxInputTokens', 6_000);
      await ask(ext, 'fake-large', history);
      assert.ok(open.requests.at(-1)!.body.messages.length < 21, 'trimmed under the new budget');
      assert.match(ext.log.text(), /\[history-trim\] Dropped \d+ old message\(s\) to fit context window \(budget=6000,/);
      double.setSetting('historyTrim.cutStepTokens', 'lots');
      assert.match(ext.log.text(), /\[settings\] opencode\.historyTrim\.cutStepTokens "lots" is not a number; using 32768\./);
    });
  });

  it('records what each conversation sent as replay JSONL when opencode.recordRequests is on', async () => {
    await withOpenServer({ recordRequests: true }, async (ext) => {
      await ask(ext, 'fake-large', [user('task')]);
      await ask(ext, 'fake-large', [user('task'), double.LanguageModelChatMessage.Assistant('ok') as never, user('next')]);
      const folder = path.join(ext.logDir, 'requests');
      const files = fs.readdirSync(folder).sort();
      assert.strictEqual(files.length, 2);
      assert.ok(files[0].endsWith('.jsonl') && files[1] === files[0].replace(/\.jsonl$/, '.meta.json'), files.join(', '));
      const lines = fs.readFileSync(path.join(folder, files[0]), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      // Each line also says what the request finally sent (route and the body's parameters, no history).
      const sent = { route: 'chat', params: { model: 'fake-large', stream: true, stream_options: { include_usage: true } }, omitted: [], refused: [] };
      assert.deepStrictEqual(lines[0], { messages: [{ role: 'user', content: 'task' }], tools: [], sent });
      assert.deepStrictEqual(lines[1], { append: [{ role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' }], sent });
      // Beside it, for the session report: the model, the budget and each request's reported tokens per estimate.
      const meta = JSON.parse(fs.readFileSync(path.join(folder, files[1]), 'utf8'));
      assert.strictEqual(meta.model, 'fake-large');
      assert.strictEqual(meta.contextWindow, 1_000_000);
      assert.ok(meta.budget > 0 && meta.maxBytes > 0 && meta.reserve > 0, JSON.stringify(meta));
      assert.strictEqual(meta.factors.length, 2);
      assert.ok(meta.factors.every((f: number) => f > 0), JSON.stringify(meta.factors));
    });
  });

  it('a recording on the Gemini route names the model in its meta (the body has no model field there)', async () => {
    await withOpenServer({ recordRequests: true, models: { 'fake-native-gemini': { api: 'gemini' } } }, async (ext) => {
      await ask(ext, 'fake-native-gemini', [user('task')]);
      const folder = path.join(ext.logDir, 'requests');
      const files = fs.readdirSync(folder).sort();
      const line = JSON.parse(fs.readFileSync(path.join(folder, files[0]), 'utf8').trim());
      assert.strictEqual(line.sent.route, 'gemini');
      assert.strictEqual(JSON.parse(fs.readFileSync(path.join(folder, files[1]), 'utf8')).model, 'fake-native-gemini');
    });
  });

  it('tells VS Code when a learned limit changes a model\'s input limit', async () => {
    await withOpenServer({}, async (ext, open) => {
      let fired = 0;
      ext.provider.onDidChangeLanguageModelChatInformation?.(() => fired++);
      const history = Array.from({ length: 30 }, (_, i) => user(`turn ${i} ${'words and more words '.repeat(100)}`));
      open.enqueueFault({ name: 'context-length-400', limit: 16_000 });
      await ask(ext, 'fake-large', history);
      assert.ok(fired >= 1);
      const models = await ext.provider.provideLanguageModelChatInformation({ silent: true }, token());
      // budget = learned 16,000 − min(20,000 reserve, 32,000 max output, half the window 8,000)
      assert.strictEqual(models?.find((m) => m.id === 'fake-large')?.maxInputTokens, 8_000);
    });
  });

  it('offers to set a key only when the user opened the model list, never during silent discovery', async () => {
    const saved = process.env.OPENCODE_API_KEY;
    delete process.env.OPENCODE_API_KEY;
    const shown: string[] = [];
    const original = double.window.showInformationMessage;
    double.window.showInformationMessage = async (...args: unknown[]) => (shown.push(String(args[0])), undefined);
    try {
      await withExtension({ url: 'https://example.invalid/v1' }, {}, async (ext) => {
        await ext.provider.provideLanguageModelChatInformation({ silent: true }, token());
        await new Promise((r) => setImmediate(r));
        assert.deepStrictEqual(shown, []);
        await ext.provider.provideLanguageModelChatInformation({ silent: false }, token());
        await new Promise((r) => setImmediate(r));
        assert.deepStrictEqual(shown, ['OpenCode needs an API key to list the models at https://example.invalid/v1.']);
      });
    } finally {
      double.window.showInformationMessage = original;
      if (saved !== undefined) process.env.OPENCODE_API_KEY = saved;
    }
  });
});
