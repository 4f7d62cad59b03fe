/**
 * Dollars in the session report: the totals' spent figure is the sum of the requests' own costs ("≈" when any
 * was computed from prices), the cache's savings follow the stated rule, warming is counted apart, and each
 * replayed policy (and what-if side) is priced from its own cold and cached tokens, or says "no price".
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { resolveSettings } from '../core/config/settings';
import { formatUsd, type RequestCost, type ModelPrices } from '../core/cost/requestCost';
import { reportData, whatIf, whatIfSettings } from '../core/report/reportData';
import { promptUsd } from '../core/report/reportDollars';
import { reportHtml } from '../core/report/reportHtml';
import { RequestLog, type ConversationLog } from '../core/report/requestLog';
import { SizeMemo } from '../core/trim/messageSize';
import type { NormalizedUsage } from '../core/types';
import { planTrim } from '../core/trim/planTrim';
import { ConversationStates } from '../core/trim/trimState';
import { runs } from './support/propertyRuns';

const settings = resolveSettings(() => undefined, () => undefined);
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const PRICES: ModelPrices = { base: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, above: 5_000, tier: { input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 } };

interface Turn {
  prompt: number;
  cached: number;
  cost?: RequestCost;
}

/** One conversation whose requests reported these usages and costs (`fake-small` has no list price). */
function conversation(turns: readonly Turn[]): ConversationLog {
  const log = new RequestLog();
  const states = new ConversationStates();
  const messages: { role: 'user' | 'assistant'; content: string }[] = [];
  turns.forEach((turn, i) => {
    messages.push({ role: 'user', content: `question ${i}` });
    const plan = planTrim(messages, [], { settings, limits: { contextWindow: 8_192, maxOutputTokens: 2_048 }, calibration: 1, memo: new SizeMemo(), states, log: quiet });
    const usage: NormalizedUsage = { shape: 'openai', contextTokens: turn.prompt, cachedTokens: turn.cached, cacheWriteTokens: 0, completionTokens: 10, totalTokens: turn.prompt + 10 };
    log.add('fake-small', plan, usage, i, undefined, turn.cost);
    messages.push({ role: 'assistant', content: `answer ${i}` });
  });
  return log.list()[0];
}

const cellOf = (html: string, key: string): string => {
  const m = new RegExp(`data-key="${key}">([^<]*)<`).exec(html);
  assert.ok(m, key);
  return m[1];
};
const page = (log: ConversationLog, prices?: ModelPrices): string => reportHtml({ data: reportData(log, settings, 0.1, prices), chosen: { headroom: 1, step: 1 }, nonce: 'n' });

const turnArb = fc.integer({ min: 0, max: 9_000 }).chain((prompt) => fc.record({
  prompt: fc.constant(prompt),
  cached: fc.integer({ min: 0, max: prompt }),
  cost: fc.option(fc.record({ usd: fc.double({ min: 0, max: 2, noNaN: true }), source: fc.constantFrom<RequestCost['source']>('reported', 'computed') }), { nil: undefined }),
}));

describe('session report dollars', () => {
  it('spent is the sum of the per-request costs, marked ≈ exactly when any was computed', () => {
    fc.assert(fc.property(fc.array(turnArb, { minLength: 1, maxLength: 6 }), (turns) => {
      const log = conversation(turns);
      const data = reportData(log, settings, 0.1, PRICES);
      const costs = log.records.flatMap((r) => (r.costUsd === undefined ? [] : [{ usd: r.costUsd, source: r.costSource }]));
      const html = page(log, PRICES);
      if (costs.length === 0) {
        assert.strictEqual(data.dollars.spent, undefined);
        assert.strictEqual(cellOf(html, 'dollars spent'), 'unknown');
        return;
      }
      const sum = costs.reduce((s, c) => s + c.usd, 0);
      const computed = costs.some((c) => c.source === 'computed');
      assert.ok(Math.abs(data.dollars.spent!.usd - sum) < 1e-9);
      assert.strictEqual(data.dollars.spent!.computed, computed);
      assert.strictEqual(data.dollars.unpriced, turns.length - costs.length);
      assert.strictEqual(cellOf(html, 'dollars spent'), `${computed ? '≈' : ''}${formatUsd(sum)}`);
    }), { numRuns: runs(40) });
  });

  it('the cache saved each request\'s cached tokens at input minus cache-read price, at that request\'s tier', () => {
    const log = conversation([{ prompt: 2_000, cached: 0 }, { prompt: 2_400, cached: 2_000 }, { prompt: 6_000, cached: 2_400 }]);
    const saved = reportData(log, settings, 0.1, PRICES).dollars.cacheSaved!;
    const expected = (2_000 * (3 - 0.3) + 2_400 * (6 - 0.6)) / 1e6;
    assert.ok(Math.abs(saved - expected) < 1e-12, `${saved} vs ${expected}`);
    assert.strictEqual(cellOf(page(log, PRICES), 'saved by the cache'), `≈${formatUsd(expected)}`);
  });

  it('without a known price: "no price" for the savings and every policy and what-if row, never a number', () => {
    const log = conversation([{ prompt: 1_000, cached: 0, cost: { usd: 0.5, source: 'reported' } }, { prompt: 1_200, cached: 1_000 }]);
    const data = reportData(log, settings); // fake-small: no list price anywhere
    assert.strictEqual(data.priced, false);
    assert.strictEqual(data.dollars.cacheSaved, undefined);
    assert.ok(data.costs.length === 3 && data.costs.every((row) => row.usd === undefined));
    const html = reportHtml({ data, whatIf: whatIf(log, settings, whatIfSettings(100, 100)), chosen: { headroom: 100, step: 100 }, nonce: 'n' });
    assert.strictEqual(cellOf(html, 'saved by the cache'), 'no price');
    assert.strictEqual(cellOf(html, 'dollars spent'), formatUsd(0.5), 'a reported cost is shown without ≈');
    assert.strictEqual((html.match(/<td class="usd">no price<\/td>/g) ?? []).length, 5, 'three policy rows and two what-if rows');
  });

  it('each policy row and what-if side is priced from its replay\'s own cold and cached tokens', () => {
    const log = conversation([{ prompt: 3_000, cached: 0 }, { prompt: 3_500, cached: 2_944 }, { prompt: 5_600, cached: 3_456 }]);
    const data = reportData(log, settings, 0.1, PRICES);
    for (const row of data.costs) {
      assert.ok(row.usd !== undefined && row.usd > 0, row.id);
      const flat = (row.summary.coldTokens * 3 + row.summary.cachedTokens * 0.3) / 1e6;
      assert.ok(row.usd >= flat - 1e-12, 'the long-context tier only adds');
    }
    const flatPrices: ModelPrices = { base: PRICES.base };
    for (const row of reportData(log, settings, 0.1, flatPrices).costs) {
      const expected = (row.summary.coldTokens * 3 + row.summary.cachedTokens * 0.3) / 1e6;
      assert.ok(Math.abs(row.usd! - expected) < 1e-12, `${row.id}: ${row.usd} vs ${expected}`);
    }
    const result = whatIf(log, settings, whatIfSettings(100, 100), 0.1, PRICES)!;
    assert.strictEqual(result.current.usd, promptUsd(result.current.steps, PRICES));
    assert.strictEqual(result.current.usd, data.costs.find((r) => r.id === 'ours')!.usd);
    const html = reportHtml({ data, whatIf: result, chosen: { headroom: 100, step: 100 }, nonce: 'n' });
    for (const row of data.costs) assert.ok(html.includes(`<td class="usd">≈${formatUsd(row.usd!)}</td>`), row.id);
  });

  it('promptUsd: cold at input, cached at cache read, each step at its own tier; output left out', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 10_000 }).chain((p) => fc.record({ promptTokens: fc.constant(p), cachedTokens: fc.integer({ min: 0, max: p }) }))), (steps) => {
      const expected = steps.reduce((s, x) => {
        const t = x.promptTokens > 5_000 ? PRICES.tier! : PRICES.base;
        return s + ((x.promptTokens - x.cachedTokens) * t.input + x.cachedTokens * t.cacheRead) / 1e6;
      }, 0);
      assert.ok(Math.abs(promptUsd(steps, PRICES)! - expected) < 1e-9);
      assert.strictEqual(promptUsd(steps, undefined), undefined);
    }));
  });

  it('warming requests and their dollars are counted apart', () => {
    const requests = new RequestLog();
    const states = new ConversationStates();
    const plan = planTrim([{ role: 'user', content: 'hi' }], [], { settings, limits: { contextWindow: 8_192, maxOutputTokens: 2_048 }, calibration: 1, memo: new SizeMemo(), states, log: quiet });
    requests.add('fake-small', plan, { shape: 'openai', contextTokens: 900, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 5, totalTokens: 905 }, 0, undefined, { usd: 0.01, source: 'reported' });
    const log = requests.list()[0];
    assert.ok(!page(log).includes('warming requests'), 'no row before any warming');
    requests.addWarming(log.sessionId, { usd: 0.002, source: 'computed' });
    requests.addWarming(log.sessionId, { usd: 0.003, source: 'reported' });
    const html = page(log);
    assert.strictEqual(cellOf(html, 'warming requests'), `2 (${formatUsd(0.005)})`);
    assert.strictEqual(cellOf(html, 'dollars spent'), formatUsd(0.01), 'warming is not in the spent figure');
  });
});
