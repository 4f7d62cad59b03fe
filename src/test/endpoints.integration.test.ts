/**
 * Go, Zen and a custom endpoint at once, through the real composition over real HTTP: the fake server mounted as
 * OpenCode's gateway (`/zen/v1`, `/zen/go/v1`, ids only) beside its own `/v1` as the default endpoint.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as vscode from 'vscode';
import type { FakeServer } from '../fakeServer';
import { composeExtension, type ComposedExtension } from '../vscode/composeExtension';
import { useFakeServer } from './support/suiteHooks';
import * as double from './support/vscodeDouble';

const ZEN_KEY = 'sk-zen-0123456789abcdef';
const GO_KEY = 'sk-go-fedcba9876543210';
const ENV_KEY = 'sk-env-opencode-only-4242';
const token = new double.CancellationTokenSource().token as unknown as vscode.CancellationToken;

interface Activated {
  ext: ComposedExtension;
  context: ReturnType<typeof double.createExtensionContext>;
  dispose(): void;
}

function activate(server: FakeServer, settings: Record<string, unknown>, globalState?: double.MemoryMemento): Activated {
  double.settingsStore.clear();
  double.settingsStore.set('baseUrl', server.url);
  for (const [key, value] of Object.entries(settings)) double.settingsStore.set(key, value);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-endpoints-'));
  const context = double.createExtensionContext(logDir, globalState);
  const ext = composeExtension(context, { timing: { sleep: async () => undefined, random: () => 0, stateWriteDelayMs: 0 } });
  return {
    ext,
    context,
    dispose: () => {
      for (const d of context.subscriptions) d.dispose();
      fs.rmSync(logDir, { recursive: true, force: true });
    },
  };
}

function endpointsOn(server: FakeServer): unknown[] {
  const origin = new URL(server.url).origin;
  // localhost, not 127.0.0.1: the same server under another URL, a custom endpoint beside the default one.
  return [
    { id: 'zen', baseUrl: `${origin}/zen/v1` },
    { id: 'go', baseUrl: `${origin}/zen/go/v1` },
    { id: 'local', baseUrl: server.url.replace('127.0.0.1', 'localhost'), label: 'My local server' },
  ];
}

/** Zen's and Go's own keys stored, as "Set API Key" would. */
async function withKeys(activated: Activated): Promise<Activated> {
  await activated.context.secrets.store('opencode.apiKey@zen', ZEN_KEY);
  await activated.context.secrets.store('opencode.apiKey@go', GO_KEY);
  return activated;
}

async function listed(ext: ComposedExtension): Promise<vscode.LanguageModelChatInformation[]> {
  return (await ext.provider.provideLanguageModelChatInformation({ silent: true } as never)) ?? [];
}

async function answer(ext: ComposedExtension, id: string, prompt: string): Promise<string> {
  const model = (await listed(ext)).find((m) => m.id === id);
  assert.ok(model, `${id} is listed`);
  const parts: unknown[] = [];
  const message = double.LanguageModelChatMessage.User(prompt) as unknown as vscode.LanguageModelChatRequestMessage;
  await ext.provider.provideLanguageModelChatResponse(model, [message], { toolMode: 1 } as never, { report: (part) => parts.push(part) }, token);
  return parts.filter((p) => p instanceof double.LanguageModelTextPart).map((p) => (p as double.LanguageModelTextPart).value).join('');
}

describe('endpoints at once (real HTTP)', () => {
  const server = useFakeServer();
  let savedEnv: string | undefined;
  before(() => {
    savedEnv = process.env.OPENCODE_API_KEY;
    process.env.OPENCODE_API_KEY = ENV_KEY;
  });
  after(() => {
    if (savedEnv === undefined) delete process.env.OPENCODE_API_KEY;
    else process.env.OPENCODE_API_KEY = savedEnv;
  });

  it('lists every endpoint\'s models at once, each labelled, the same model id apart per endpoint', async () => {
    const { ext, dispose } = await withKeys(activate(server(), { endpoints: endpointsOn(server()) }));
    try {
      await Promise.all(ext.endpoints.all().map((part) => part.list.refresh()));
      const models = await listed(ext);
      const byId = new Map(models.map((m) => [m.id, m]));
      assert.ok(byId.get('fake-large'), 'the default endpoint keeps bare ids');
      assert.match(byId.get('zen/claude-sonnet-4-5')?.detail ?? '', /^OpenCode Zen · /);
      assert.match(byId.get('go/glm-5')?.detail ?? '', /^OpenCode Go · /);
      assert.match(byId.get('local/fake-large')?.detail ?? '', /^My local server/);
      // One model on two endpoints: two entries, each with its endpoint's window (Zen 204,800, Go 202,752).
      const zenGlm = byId.get('zen/glm-5');
      const goGlm = byId.get('go/glm-5');
      assert.ok(zenGlm && goGlm);
      assert.notStrictEqual(zenGlm.maxInputTokens + zenGlm.maxOutputTokens, goGlm.maxInputTokens + goGlm.maxOutputTokens);
      assert.ok(!models.some((m) => m.id === 'zen/big-pickle'), 'free-tier models stay hidden on every endpoint');
      assert.strictEqual(new Set(models.map((m) => m.id)).size, models.length, 'ids are unique');
    } finally {
      dispose();
    }
  });

  it("answers from each endpoint with that endpoint's key; the environment's key reaches no URL but https://opencode.ai", async () => {
    const { ext, dispose } = await withKeys(activate(server(), { endpoints: endpointsOn(server()) }));
    try {
      for (const id of ['zen/glm-5', 'go/glm-5', 'local/fake-large', 'fake-large']) assert.ok((await answer(ext, id, `hello from ${id}`)).length > 0, id);
      const chats = server().requests.filter((r) => r.method === 'POST');
      const sentBy = (prefix: string) => chats.filter((r) => r.path.startsWith(prefix));
      assert.deepStrictEqual(sentBy('/zen/v1/').map((r) => [r.body.model, r.headers.authorization]), [['glm-5', `Bearer ${ZEN_KEY}`]]);
      assert.deepStrictEqual(sentBy('/zen/go/v1/').map((r) => [r.body.model, r.headers.authorization]), [['glm-5', `Bearer ${GO_KEY}`]]);
      const plain = sentBy('/v1/');
      assert.strictEqual(plain.length, 2);
      assert.strictEqual(plain[0].headers.authorization, undefined, 'a custom endpoint without its own key sends none');
      // OPENCODE_API_KEY goes only over https to opencode.ai: not to a loopback default endpoint either.
      assert.strictEqual(plain[1].headers.authorization, undefined, 'the default endpoint at a URL the user set gets no environment key');
      assert.ok(!chats.some((r) => JSON.stringify(r.headers).includes(ENV_KEY)), 'the environment key reached no endpoint');
    } finally {
      dispose();
    }
  });

  it('keeps the endpoints apart: conversation ids, learned windows, saved state and the request log', async () => {
    const { ext, context, dispose } = await withKeys(activate(server(), { endpoints: endpointsOn(server()) }));
    try {
      await answer(ext, 'zen/glm-5', 'the same conversation');
      server().enqueueFault({ name: 'context-length-400', limit: 60_000 });
      await answer(ext, 'go/glm-5', 'the same conversation');
      const chats = server().requests.filter((r) => r.method === 'POST');
      const session = (prefix: string) => chats.find((r) => r.path.startsWith(prefix))?.headers['x-opencode-session'];
      assert.ok(session('/zen/v1/') && session('/zen/go/v1/'));
      assert.notStrictEqual(session('/zen/v1/'), session('/zen/go/v1/'), 'one conversation per endpoint');
      const models = new Map((await listed(ext)).map((m) => [m.id, m]));
      assert.ok((models.get('go/glm-5')?.maxInputTokens ?? Infinity) < 60_000, "Go's refusal taught Go's window");
      assert.ok((models.get('zen/glm-5')?.maxInputTokens ?? 0) > 100_000, "Zen's window is untouched");
      assert.strictEqual((context.globalState.get('opencode.learnedLimits@go') as Record<string, { window?: number }>)['glm-5'].window, 60_000);
      const zen = (context.globalState.get('opencode.learnedLimits@zen') ?? {}) as Record<string, { window?: number; ceiling?: number }>;
      assert.ok(zen['glm-5']?.window === undefined && zen['glm-5']?.ceiling === undefined, 'Zen learned no limit');
      assert.deepStrictEqual(ext.requests.list().map((log) => log.modelId).sort(), ['go/glm-5', 'zen/glm-5']);
    } finally {
      dispose();
    }
  });

  it('"Set API Key" asks which endpoint, and stores the key for that one only', async () => {
    const { context, dispose } = activate(server(), { endpoints: endpointsOn(server()) });
    const typed = double.window.showInputBox;
    try {
      double.quickPick.choose = (items) => items.find((item: { label: string }) => item.label === 'OpenCode Zen');
      double.window.showInputBox = async () => ` ${ZEN_KEY} `;
      await double.commands.executeCommand('opencode.setApiKey');
      assert.deepStrictEqual(double.quickPick.offered.map((item: { label: string }) => item.label), ['127.0.0.1:' + new URL(server().url).port, 'OpenCode Zen', 'OpenCode Go', 'My local server']);
      assert.strictEqual(await context.secrets.get('opencode.apiKey@zen'), ZEN_KEY);
      assert.strictEqual(await context.secrets.get('opencode.apiKey@go'), undefined);
      assert.strictEqual(await context.secrets.get('opencode.apiKey'), undefined);
    } finally {
      double.quickPick.choose = undefined;
      double.window.showInputBox = typed;
      dispose();
    }
  });

  it('"Add Endpoint" adds Go or Zen, or a URL checked like the setting, and asks for its key unless it is local', async () => {
    const { context, dispose } = activate(server(), {});
    const typed = double.window.showInputBox;
    const boxes: { value?: string; validateInput?: (input: string) => string | undefined }[] = [];
    const answers: (string | undefined)[] = [];
    try {
      double.window.showInputBox = async (options?: { value?: string; validateInput?: (input: string) => string | undefined }) => {
        boxes.push(options ?? {});
        return answers.length ? answers.shift() : options?.value;
      };
      double.quickPick.choose = (items) => items.find((item: { label: string }) => item.label === 'OpenCode Zen');
      answers.push(ZEN_KEY);
      await double.commands.executeCommand('opencode.addEndpoint');
      assert.deepStrictEqual(double.settingsStore.get('endpoints'), ['zen']);
      assert.strictEqual(await context.secrets.get('opencode.apiKey@zen'), ZEN_KEY, 'its key was asked for next');

      double.quickPick.choose = (items) => {
        assert.ok(!items.some((item: { label: string }) => item.label === 'OpenCode Zen'), 'Zen is not offered twice');
        return items.find((item: { label: string }) => item.label.startsWith('Another'));
      };
      const url = server().url.replace('127.0.0.1', 'localhost');
      boxes.length = 0;
      answers.push(url);
      await double.commands.executeCommand('opencode.addEndpoint');
      assert.deepStrictEqual(double.settingsStore.get('endpoints'), ['zen', { id: 'localhost', baseUrl: url }]);
      assert.strictEqual(boxes.length, 2, 'the URL and the id; no key for a loopback server');
      const [urlBox, idBox] = boxes;
      assert.match(urlBox.validateInput?.(`${url}?key=sk-secret-123`) ?? '', /query string/);
      assert.ok(!(urlBox.validateInput?.(`${url}?key=sk-secret-123`) ?? '').includes('sk-secret-123'), 'the refusal never quotes a secret');
      assert.strictEqual(urlBox.validateInput?.(server().url), 'That endpoint is already listed.');
      assert.match(idBox.validateInput?.('zen') ?? '', /already/);
      assert.match(idBox.validateInput?.('Bad Id') ?? '', /lowercase/);
    } finally {
      double.quickPick.choose = undefined;
      double.window.showInputBox = typed;
      dispose();
    }
  });

  it('state saved before endpoints existed is the default endpoint\'s, and still read', async () => {
    const saved = new double.MemoryMemento();
    await saved.update('opencode.learnedLimits', { 'fake-large': 12_000 });
    const { ext, context, dispose } = activate(server(), {}, saved);
    try {
      const model = (await listed(ext)).find((m) => m.id === 'fake-large');
      assert.ok(model && model.maxInputTokens + model.maxOutputTokens <= 12_000, 'the learned window still applies');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepStrictEqual(context.globalState.get('opencode.learnedLimits@custom'), { 'fake-large': 12_000 });
      assert.strictEqual(context.globalState.get('opencode.learnedLimits'), undefined);
    } finally {
      dispose();
    }
  });
});
