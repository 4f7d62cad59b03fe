/**
 * The session report reads recorded conversations (opencode.recordRequests) as well as memory: a
 * conversation recorded in an earlier launch opens after a "restart" (a second activation with
 * VS Code's per-launch log folder tree); a bad recording is one clear error message, never a panel.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveSettings } from '../core/config/settings';
import type { ReportData } from '../core/report/reportData';
import { readRecording } from '../core/report/recordedConversation';
import { RequestRecording } from '../core/replay/requestRecording';
import { activate } from '../extension';
import { recordingFolders } from '../vscode/recordings';
import * as double from './support/vscodeDouble';
import { ask, assistant, user, type ActivatedExtension } from './support/activatedExtension';
import { conversationArb } from './support/conversationArb';
import { useFakeServer } from './support/suiteHooks';
import { runs } from './support/propertyRuns';

const EXT = 'opencode-community.opencode-chat-provider';

/** A launch: VS Code's log folder tree `<logs>/<launch>/window1/exthost/<extension>`. */
function activateWindow(root: string, session: string, url: string, settings: Record<string, unknown>): ActivatedExtension {
  double.settingsStore.clear();
  double.settingsStore.set('baseUrl', url);
  for (const [key, value] of Object.entries(settings)) double.settingsStore.set(key, value);
  const logDir = path.join(root, 'logs', session, 'window1', 'exthost', EXT);
  fs.mkdirSync(logDir, { recursive: true });
  const context = double.createExtensionContext(logDir);
  const channels = double.createdChannels.length;
  activate(context);
  return {
    provider: double.registeredProviders.get('opencode'),
    log: double.createdChannels[channels],
    context,
    logDir,
    dispose: () => context.subscriptions.forEach((d: { dispose(): void }) => d.dispose()),
  };
}

describe('session report: recorded conversations', () => {
  const server = useFakeServer();
  let root = '';
  let ext: ActivatedExtension | undefined;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-rec-'));
    double.quickPick.choose = undefined;
    double.shownMessages.length = 0;
  });
  afterEach(() => {
    ext?.dispose();
    ext = undefined;
    double.settingsStore.clear();
    double.quickPick.choose = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const showReport = async (): Promise<ReportData | undefined> => (await double.commands.executeCommand('opencode.showReport')) as ReportData | undefined;

  it('a conversation recorded before a restart opens from an earlier launch folder, on the same cuts, what-if included', async () => {
    ext = activateWindow(root, '20261201T010000', server().url, { recordRequests: true });
    const history = [user(`recorded question ${'lorem ipsum '.repeat(200)}`)];
    for (let turn = 0; turn < 12; turn++) {
      await ask(ext, 'fake-small', history);
      history.push(assistant(`answer ${turn} ${'dolor sit amet '.repeat(250)}`), user(`turn ${turn} ${'consectetur '.repeat(250)}`));
    }
    const observed = (await double.commands.executeCommand('opencode.showReport', 'latest')) as ReportData;
    assert.ok(observed.records.some((r) => r.removed > 0), 'the conversation was cut');
    const recording = fs.readdirSync(path.join(ext.logDir, 'requests')).find((f) => f.endsWith('.jsonl'));
    assert.ok(recording, 'the recorder wrote a file');
    ext.dispose();

    ext = activateWindow(root, '20261201T020000', server().url, { recordRequests: true });
    const panels = double.createdPanels.length;
    double.quickPick.choose = (items) => items.find((i: { id: string }) => i.id.startsWith('recorded:'));
    const data = await showReport();
    assert.ok(data, 'the recorded conversation opened');
    assert.strictEqual(double.quickPick.offered.length, 1);
    assert.strictEqual(data.recordedFile, recording);
    assert.strictEqual(data.modelId, 'fake-small', 'the model from the meta file');
    assert.deepStrictEqual(data.records.map((r) => r.inputCount), observed.records.map((r) => r.inputCount));
    assert.deepStrictEqual(data.records.map((r) => r.budget), observed.records.map((r) => r.budget));
    assert.deepStrictEqual(data.records.map((r) => r.removed), observed.records.map((r) => r.removed), 'the replay lands on the cuts the real run made');
    assert.ok(data.records[1].cachedTokens > 0, 'the second request reuses the first one\'s prefix');
    assert.strictEqual(data.costs.length, 3);
    const panel = double.createdPanels[panels];
    assert.ok(panel.webview.html.includes('id="recorded"') && panel.webview.html.includes(recording));
    assert.ok(panel.webview.html.includes('the budget is the one <code>fake-small</code> had'));
    assert.ok(panel.webview.html.includes('Totals (replayed from the recording)'));
    panel.send({ type: 'whatIf', headroom: 200, step: 200 });
    await double.whenHtml(panel, (html) => html.includes('id="whatif-result"'));
    assert.ok(panel.webview.html.includes('<td>200</td><td>200</td>'));
  });

  it('a recording without its meta file (or a broken one) is replayed for the fallback window and says so', async () => {
    ext = activateWindow(root, '20261201T023000', server().url, { recordRequests: true });
    const folder = path.join(ext.logDir, 'requests');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'old.jsonl'), '{"messages":[{"role":"user","content":"hi"}]}\n{"append":[{"role":"assistant","content":"yo"},{"role":"user","content":"more"}]}\n');
    fs.writeFileSync(path.join(folder, 'old.meta.json'), '{"model": 7}');
    double.quickPick.choose = (items) => items[0];
    const data = await showReport();
    assert.ok(data);
    assert.strictEqual(data.modelId, 'recorded');
    assert.strictEqual(data.records[0].contextWindow, 128_000);
    assert.ok(double.createdPanels.at(-1).webview.html.includes('the budget is the fallback window (opencode.contextLimitFallback)'));
  });

  it('a bad recording gives an error naming the file and the line; no panel opens; the file stays', async () => {
    ext = activateWindow(root, '20261201T030000', server().url, { recordRequests: true });
    const folder = path.join(ext.logDir, 'requests');
    fs.mkdirSync(folder, { recursive: true });
    const bad = '{"messages":[{"role":"user","content":"hi"}],"tools":[]}\n{"messages":[{"role":"robot","content":"x"}]}\n';
    fs.writeFileSync(path.join(folder, 'bad.jsonl'), bad);
    fs.writeFileSync(path.join(folder, 'empty.jsonl'), '\n\n');
    const panels = double.createdPanels.length;
    for (const [name, expected] of [
      ['bad.jsonl', /^OpenCode: bad\.jsonl is not a valid request recording: line 2: messages\[0\]\.role: expected "system", "user", "assistant" or "tool", got a string "robot"\. The file was left as it is\.$/],
      ['empty.jsonl', /^OpenCode: empty\.jsonl holds no requests\. The file was left as it is\.$/],
    ] as const) {
      double.quickPick.choose = (items) => items.find((i: { detail: string }) => i.detail.endsWith(name));
      assert.strictEqual(await showReport(), undefined);
      const said = double.shownMessages.filter((m) => m.level === 'error').at(-1)?.message;
      assert.match(said ?? '', expected);
    }
    fs.writeFileSync(path.join(folder, 'gone.jsonl'), '{"messages":[{"role":"user","content":"hi"}]}\n');
    double.quickPick.choose = (items) => {
      fs.rmSync(path.join(folder, 'gone.jsonl'));
      return items.find((i: { detail: string }) => i.detail.endsWith('gone.jsonl'));
    };
    assert.strictEqual(await showReport(), undefined);
    assert.match(double.shownMessages.filter((m) => m.level === 'error').at(-1)?.message ?? '', /^OpenCode: gone\.jsonl could not be read \(ENOENT[^)]*\)\. /);
    assert.strictEqual(double.createdPanels.length, panels, 'no panel for a bad file');
    assert.strictEqual(fs.readFileSync(path.join(folder, 'bad.jsonl'), 'utf8'), bad);
    assert.match(ext.log.text(), /\[warn\] \[report\] bad\.jsonl is not a valid request recording: line 2/);
  });

  it('recordings are offered only while opencode.recordRequests is on', async () => {
    ext = activateWindow(root, '20261201T040000', server().url, {});
    const folder = path.join(ext.logDir, 'requests');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'old.jsonl'), '{"messages":[{"role":"user","content":"hi"}]}\n');
    double.quickPick.offered = [];
    assert.strictEqual(await showReport(), undefined);
    assert.deepStrictEqual(double.quickPick.offered, []);
    const said = double.shownMessages.map((m) => m.message).find((m) => m.includes('no requests'));
    assert.match(said ?? '', /no requests in this window yet.*Turn on opencode\.recordRequests/);
  });
});

describe('recordings (pure parts)', () => {
  const settings = resolveSettings(() => undefined, () => undefined);

  it('any text is either a recording or one sentence naming the file; never a throw', () => {
    const line = fc.oneof(
      fc.string(),
      fc.constant('{"messages":[{"role":"user","content":"hi"}]}'),
      fc.constant('{"append":[{"role":"assistant","content":"ok"},{"role":"user","content":"more"}]}'),
      fc.json(),
    );
    fc.assert(fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
      const result = readRecording('x.jsonl', lines.join('\n'), settings, undefined, 0);
      if (result.ok) assert.ok(result.log.records.length > 0 && result.log.recordedFile === 'x.jsonl');
      else assert.match(result.reason, /^x\.jsonl (is not a valid request recording: line \d+: .+\.|holds no requests\.)$/);
    }));
  });

  it('whatever the recorder writes reads back: one record per request, its inputs, cached never above prompt', () => {
    fc.assert(fc.property(conversationArb, fc.integer({ min: 1_000, max: 200_000 }), ({ turns }, fallback) => {
      const recording = new RequestRecording();
      const text = turns.map((history) => recording.lineFor(history, [])).join('\n');
      const result = readRecording('s.jsonl', text, { ...settings, contextLimitFallback: fallback }, undefined, 0);
      assert.ok(result.ok, result.ok ? '' : result.reason);
      assert.deepStrictEqual(result.log.records.map((r) => r.inputCount), turns.map((t) => t.length));
      assert.strictEqual(result.log.sessionId, 's');
      for (const r of result.log.records) assert.ok(r.cachedTokens <= r.promptTokens && r.promptTokens > 0 && r.contextWindow === fallback, JSON.stringify(r));
    }), { numRuns: runs(60) });
  });

  it('finds the earlier launches only in VS Code\'s log folder tree', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-folders-'));
    try {
      const dir = (session: string, win: string): string => path.join(root, 'logs', session, win, 'exthost', EXT);
      for (const [s, w] of [['A', 'window1'], ['B', 'window1'], ['B', 'window2'], ['B', 'output']]) fs.mkdirSync(dir(s, w), { recursive: true });
      const found = recordingFolders(dir('B', 'window1')).map((f) => path.relative(root, f));
      assert.deepStrictEqual(found.sort(), [['A', 'window1'], ['B', 'window1'], ['B', 'window2']].map(([s, w]) => path.join('logs', s, w, 'exthost', EXT, 'requests')).sort());
      assert.deepStrictEqual(recordingFolders(path.join(root, 'flat')), [path.join(root, 'flat', 'requests')]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
