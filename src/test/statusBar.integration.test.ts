/**
 * The status bar item and the report command in the activated extension (vscode double, fake server over
 * real HTTP): hidden until the first request, then the `[usage]` line's hit and fill; a changed trim setting
 * writes one `[settings]` line and shows in the tooltip at once; the report command returns the figures the
 * log shows. The page itself: strict CSP, no remote content, the chart and the tables.
 */
import * as assert from 'assert';
import { startFakeServer, type FakeServer } from '../fakeServer';
import { reportHtml } from '../core/report/reportHtml';
import { formatUsd } from '../core/cost/requestCost';
import type { ReportData } from '../core/report/reportData';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, assistant, user } from './support/activatedExtension';

const statusItem = (): { visible: boolean; text: string; tooltip: { value: string }; command: { command: string; arguments: string[] } } =>
  double.createdStatusItems.filter((item) => item.id === 'opencode.status').at(-1);

describe('status bar and session report (activated extension)', () => {
  let server: FakeServer;
  before(async () => {
    server = await startFakeServer();
  });
  after(() => server.close());

  it('shows the last [usage] figures, updates on a settings change with a [settings] line, and the report agrees with the log', async () => {
    const ext = activateAgainst(server);
    try {
      assert.strictEqual(statusItem().visible, false, 'hidden before the first request (loopback needs no key)');
      const history = [user(`first question ${'lorem ipsum '.repeat(200)}`)];
      await ask(ext, 'fake-small', history);
      await ask(ext, 'fake-small', [...history, assistant('an answer'), user('second question')]);
      const usage = ext.log.lines.map((l) => l.message).filter((m) => m.startsWith('[usage]')).pop() ?? '';
      const m = /prompt=(\d+) .*cacheHit=([\d.]+)%/.exec(usage);
      assert.ok(m, usage);
      const item = statusItem();
      assert.ok(item.visible);
      assert.ok(item.text.includes(`${Math.round(Number(m[2]))}%`), `${item.text} vs ${usage}`);
      const prompt = Number(m[1]);
      assert.ok(item.text.includes(prompt >= 1000 ? `${Math.round(prompt / 1000)}K/6K` : `${prompt}/6K`), item.text);
      assert.strictEqual(item.command.command, 'opencode.showReport');

      double.setSetting('historyTrim.cutStepTokens', 16_384);
      const settingsLines = ext.log.lines.map((l) => l.message).filter((l) => l.startsWith('[settings]'));
      assert.deepStrictEqual(settingsLines, ['[settings] opencode.historyTrim.cutStepTokens 32768 → 16384']);
      assert.ok(String(statusItem().tooltip.value).includes('cut step 16384'));

      const data = (await double.commands.executeCommand('opencode.showReport', item.command.arguments[0])) as ReportData;
      assert.strictEqual(data.records.length, 2);
      assert.strictEqual(data.records[1].promptTokens, prompt);
      const panel = double.createdPanels[double.createdPanels.length - 1];
      assert.ok(panel.webview.html.includes(`<td data-key="requests">2</td>`));
      panel.send({ type: 'whatIf', headroom: 300, step: 300 });
      await double.whenHtml(panel, (html) => html.includes('id="whatif-result"'));
      assert.ok(panel.webview.html.includes('<td>300</td><td>300</td>'), 'the chosen side shows the chosen values');
      panel.send({ type: 'apply', headroom: 300, step: 512 });
      await double.whenHtml(panel, (html) => html.includes('Wrote headroom')); // set after the settings are written
      assert.deepStrictEqual(['headroomRatio', 'headroomMinTokens', 'headroomMaxTokens', 'cutStepTokens'].map((k) => double.settingsStore.get(`historyTrim.${k}`)), [0, 300, 300, 512]);
      panel.send({ type: 'apply', headroom: 'lots', step: 1 });
    } finally {
      ext.dispose();
      double.settingsStore.clear();
    }
  });

  it('the tooltip shows the last request\'s dollars and the conversation so far: the sum of its [usage] lines', async () => {
    const ext = activateAgainst(server);
    try {
      const history = [user(`a question ${'lorem ipsum '.repeat(200)}`)];
      await ask(ext, 'fake-small', history);
      await ask(ext, 'fake-small', [...history, assistant('an answer'), user('and another')]);
      await ask(ext, 'fake-small', [...history, assistant('an answer'), user('and another'), assistant('ok'), user('last one')]);
      const costs = ext.log.lines.map((l) => l.message).filter((m) => m.startsWith('[usage]')).map((m) => Number(/ cost=\$(\d+\.\d+)$/.exec(m)?.[1]));
      assert.strictEqual(costs.length, 3);
      assert.ok(costs.every((c) => c > 0), 'each [usage] line carries OpenCode\'s cost');
      const tooltip = String(statusItem().tooltip.value);
      assert.ok(tooltip.includes(`\n| cost | ${formatUsd(costs[2])} |\n`), tooltip);
      assert.ok(tooltip.includes(`\n| conversation so far | ${formatUsd(costs[0] + costs[1] + costs[2])} |\n`), tooltip);
    } finally {
      ext.dispose();
    }
  });

  it('report page: strict CSP with a nonce, nothing remote, chart and tables present, text escaped', () => {
    const record = { at: 0, modelId: 'm<script>', sessionId: 's', promptTokens: 5000, cachedTokens: 4000, completionTokens: 10, cacheHit: 0.8, budget: 6144, contextWindow: 8192, reserve: 2048, maxBytes: 524288, headroom: 614, cutStep: 614, ceiling: 5888, lowWater: 4660, cutMoved: true, removed: 3, inputCount: 9, estTokens: 4900, overCeiling: false, factor: 1 };
    const data: ReportData = { sessionId: 's', modelId: 'm<script>', records: [record], totals: { requests: 1, promptTokens: 5000, coldTokens: 1000, cachedTokens: 4000, completionTokens: 10, cutMoves: 1, meanHit: 0.8, overCeiling: 0 }, observedCost: 1400, cachedPrice: 0.1, dollars: { unpriced: 1 }, priced: false, costs: [] };
    const html = reportHtml({ data, chosen: { headroom: 614, step: 614 }, nonce: 'abc123' });
    assert.ok(html.includes(`content="default-src 'none'; img-src data:; style-src 'nonce-abc123'; script-src 'nonce-abc123';"`));
    assert.ok(!/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(html), 'no remote URL');
    assert.strictEqual((html.match(/<script/g) ?? []).length, 1);
    assert.ok(html.includes('<script nonce="abc123">'));
    assert.ok(!html.includes('m<script>') && html.includes('m&#60;script&#62;'));
    assert.ok(html.includes('<svg class="chart"') && html.includes('class="move"') && html.includes('class="budget"') && html.includes('class="lowwater"'));
    assert.ok(html.includes('<td data-key="requests">1</td>'));
    // Any whole token count is a valid what-if value (a step of 256 once made the form refuse 400).
    assert.strictEqual((html.match(/type="number" min="0" max="1000000" step="1"/g) ?? []).length, 2);
    assert.ok(html.includes('<button type="submit" id="replay">Replay</button>') && html.includes('id="apply"'));
  });
});
