/**
 * The session report's data: the request log fed by the real engine against the fake server (its records
 * must say what the `[usage]` lines say), totals, the cost comparison (no trim, minimal fit, ours) and the
 * what-if replay, and the status bar text built from the same records.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { resolveSettings, type Settings } from '../core/config/settings';
import { ChatEngine } from '../core/request/chatEngine';
import { costComparison, reportData, whatIf, whatIfSettings } from '../core/report/reportData';
import { RequestLog, type ConversationLog, type RequestRecord } from '../core/report/requestLog';
import { compactTokens, shortModelName, statusView } from '../core/report/statusText';
import { settingsChangeLine } from '../core/config/settingsDiff';
import { totals } from '../core/report/totals';
import type { ChatMessage } from '../core/types';
import { startFakeServer, type FakeServer } from '../fakeServer/server';
import { MemoryStore } from './support/engineHarness';
import { filler } from './support/trimHarness';
import { MemoryLogger } from './support/memoryLogger';

const SMALL = { contextWindow: 8_192, maxOutputTokens: 2_048 };

interface Session {
  log: ConversationLog;
  lines: string[];
  settings: Settings;
}

/** `turns` requests of one growing conversation through the real engine; every accounted request logged. */
async function runSession(server: FakeServer, turns: number): Promise<Session> {
  const logger = new MemoryLogger();
  const settings = resolveSettings((key) => (key === 'baseUrl' ? server.url : undefined), () => undefined);
  const requests = new RequestLog();
  const engine = new ChatEngine({
    log: logger, store: new MemoryStore(), settings: () => settings, apiKey: async () => undefined,
    onAccounted: (modelId, prepared, usage) => requests.add(modelId, prepared, usage),
  });
  const messages: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: `ANCHOR ${filler(200, 0)}` }] }];
  for (let i = 0; i < turns; i++) {
    await engine.run({ purpose: 'conversation', modelId: 'fake-small', messages, tools: [] }, SMALL, () => undefined, new AbortController().signal);
    messages.push({ role: 'assistant', parts: [{ kind: 'text', text: `answer ${i} ${filler(260, i)}` }] });
    messages.push({ role: 'user', parts: [{ kind: 'text', text: `turn ${i} ${filler(260, i + 7)}` }] });
  }
  const [log] = requests.list();
  return { log, lines: logger.messages(), settings };
}

function usageFigures(line: string): { prompt: number; completion: number; cached: number; hit: number } {
  const m = /prompt=(\d+) completion=(\d+) total=\d+ cached=(\d+) cacheHit=([\d.]+)%/.exec(line);
  assert.ok(m, line);
  return { prompt: Number(m[1]), completion: Number(m[2]), cached: Number(m[3]), hit: Number(m[4]) };
}

describe('session report data', () => {
  let server: FakeServer;
  let session: Session;
  before(async () => {
    server = await startFakeServer();
    session = await runSession(server, 30);
  });
  after(() => server.close());

  it('keeps one record per accounted request with the [usage] line figures', () => {
    const usage = session.lines.filter((l) => l.startsWith('[usage]')).map(usageFigures);
    assert.strictEqual(session.log.records.length, 30);
    assert.strictEqual(usage.length, 30);
    session.log.records.forEach((r, i) => {
      assert.strictEqual(r.promptTokens, usage[i].prompt);
      assert.strictEqual(r.cachedTokens, usage[i].cached);
      assert.strictEqual(r.completionTokens, usage[i].completion);
      assert.strictEqual((r.cacheHit * 100).toFixed(1), usage[i].hit.toFixed(1));
    });
    const moved = session.lines.filter((l) => l.startsWith('[history-trim] Dropped') && l.endsWith('cut=moved')).length;
    assert.ok(moved >= 2, `the session should move the cut (moved ${moved})`);
    assert.strictEqual(totals(session.log.records).cutMoves, moved);
    assert.strictEqual(session.log.requests.at(-1)?.messages.length, 1 + 2 * 29);
  });

  it('totals add up for any records', () => {
    const record = fc.record({ promptTokens: fc.nat(1_000_000), hit: fc.double({ min: 0, max: 1, noNaN: true }), completionTokens: fc.nat(50_000), cutMoved: fc.boolean(), overBudget: fc.boolean() });
    fc.assert(fc.property(fc.array(record, { maxLength: 40 }), (raw) => {
      const records = raw.map((r) => ({ ...session.log.records[0], ...r, cachedTokens: Math.floor(r.promptTokens * r.hit), cacheHit: r.promptTokens ? Math.floor(r.promptTokens * r.hit) / r.promptTokens : 0 }));
      const t = totals(records);
      assert.strictEqual(t.requests, records.length);
      assert.strictEqual(t.coldTokens + t.cachedTokens, t.promptTokens);
      assert.strictEqual(t.cutMoves, records.filter((r) => r.cutMoved).length);
      assert.ok(t.meanHit >= 0 && t.meanHit <= 1);
    }));
  });

  it('compares the cost with no trim (over budget) and minimal fit (costlier, more cut moves)', () => {
    const rows = costComparison(session.log, session.settings);
    const by = Object.fromEntries(rows.map((r) => [r.id, r]));
    assert.strictEqual(by.noTrim.relative, 1);
    assert.strictEqual(by.noTrim.summary.cutMoves, 0);
    assert.ok(by.noTrim.overBudget > 0, 'no trim sends more than the budget');
    assert.strictEqual(by.ours.overBudget, 0);
    assert.ok(by.ours.cost < by.minimalFit.cost, `ours ${by.ours.cost} vs minimal fit ${by.minimalFit.cost}`);
    assert.ok(by.minimalFit.summary.cutMoves > by.ours.summary.cutMoves, `minimal fit ${by.minimalFit.summary.cutMoves} vs ours ${by.ours.summary.cutMoves}`);
    assert.ok(by.ours.summary.meanHit > by.minimalFit.summary.meanHit);
    // The replay of our own trim lands on the very cuts the real run made.
    assert.strictEqual(by.ours.summary.cutMoves, totals(session.log.records).cutMoves);
    const replayed = whatIf(session.log, session.settings, {})?.current.steps.map((s) => s.removed);
    assert.deepStrictEqual(replayed, session.log.records.map((r) => r.removed));
    const data = reportData(session.log, session.settings);
    assert.strictEqual(data.totals.requests, 30);
    assert.ok(data.observedCost > 0);
  });

  it('what-if: a smaller grid keeps more context and moves the cut more often; the current side is our cost row', () => {
    const result = whatIf(session.log, session.settings, whatIfSettings(150, 150));
    assert.ok(result);
    const ours = costComparison(session.log, session.settings).find((r) => r.id === 'ours');
    assert.deepStrictEqual(result.current.summary, ours?.summary);
    assert.deepStrictEqual([result.chosen.headroom, result.chosen.step], [150, 150]);
    assert.ok(result.chosen.summary.cutMoves > result.current.summary.cutMoves, `${result.chosen.summary.cutMoves} vs ${result.current.summary.cutMoves}`);
    assert.ok(result.chosen.summary.meanKept > result.current.summary.meanKept);
    assert.ok(result.chosen.summary.meanHit < result.current.summary.meanHit);
  });

  it('status bar: the last record hit and fill, a warning over budget or when the hit collapses while the cut held', () => {
    const records = session.log.records;
    const last = records[records.length - 1];
    const view = statusView(last, records[records.length - 2], session.settings.historyTrim);
    assert.ok(view.text.includes(`${Math.round(last.cacheHit * 100)}%`), view.text);
    assert.ok(view.text.includes('/6K'), view.text);
    assert.ok(view.tooltip.includes(last.promptTokens.toLocaleString('en-US')));
    const over: RequestRecord = { ...last, overCeiling: true };
    assert.ok(statusView(over, undefined, session.settings.historyTrim).warning?.includes('over budget'));
    const collapsed: RequestRecord = { ...last, cutMoved: false, cacheHit: 0.1 };
    assert.ok(statusView(collapsed, { ...last, cacheHit: 0.9 }, session.settings.historyTrim).warning?.includes('cache hit fell'));
    assert.strictEqual(statusView({ ...last, cutMoved: true, cacheHit: 0.1 }, { ...last, cacheHit: 0.9 }, session.settings.historyTrim).warning, undefined);
  });
});

describe('[settings] change line and status text helpers', () => {
  const base = resolveSettings(() => undefined, () => undefined);

  it('names every changed value old → new, and nothing when nothing changed', () => {
    const changed = { ...base, maxRetries: 5, historyTrim: { ...base.historyTrim, cutStepTokens: 16_384, enabled: false } };
    assert.strictEqual(settingsChangeLine(base, changed), '[settings] opencode.historyTrim.enabled true → false, opencode.historyTrim.cutStepTokens 32768 → 16384, opencode.maxRetries 3 → 5');
    assert.strictEqual(settingsChangeLine(base, { ...base, historyTrim: { ...base.historyTrim } }), undefined);
  });

  it('compacts token counts the way the status bar shows them', () => {
    assert.deepStrictEqual([950, 1_499, 412_000, 614_400, 1_000_000, 1_250_000, Infinity].map(compactTokens), ['950', '1K', '412K', '614K', '1M', '1.3M', '∞']);
    assert.strictEqual(shortModelName('opencode/very-long-model-name-that-goes-on-and-on'), 'very-long-model-name-th…');
  });
});
