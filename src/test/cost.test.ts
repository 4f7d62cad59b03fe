/** The pure cost rules: reading OpenCode's cost frame, pricing a usage record, writing dollars, finding prices. */
import * as assert from 'assert';
import fc from 'fast-check';
import { computedUsd, costField, formatUsd, requestCost, pricesAt, pricesFor } from '../core/cost/requestCost';
import type { NormalizedUsage } from '../core/types';
import { formatUsageLine } from '../core/usage/usage';
import { reportedCostOf } from '../core/answer/answerReader';
import { runs } from './support/propertyRuns';

const usage = (context: number, cached: number, written: number, completion: number): NormalizedUsage => ({ shape: 'anthropic', contextTokens: context, cachedTokens: cached, cacheWriteTokens: written, completionTokens: completion, totalTokens: context + completion });

describe('cost', () => {
  it('reads the cost frame in both of OpenCode\'s shapes, as a string or a number, and nothing else', () => {
    assert.strictEqual(reportedCostOf('{"choices":[],"cost":"0.012300"}'), 0.0123);
    assert.strictEqual(reportedCostOf('{"type":"ping","cost":"0.5"}'), 0.5);
    assert.strictEqual(reportedCostOf({ type: 'ping', cost: 2 }), 2);
    assert.strictEqual(reportedCostOf('{"type":"ping","cost":"1e-6"}'), 1e-6);
    for (const other of ['{"type":"ping"}', '{"type":"ping","cost":"-1"}', '{"type":"ping","cost":"free"}', '{"choices":[{"delta":{}}],"cost":"1"}', '{"usage":{"cost":1}}', '[DONE]', '{not json "cost"', '{"cost":1}']) {
      assert.strictEqual(reportedCostOf(other), undefined, other);
    }
  });

  it('property: reading any payload never throws, and a cost read back is what a frame carried', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.anything()), (data) => {
      const usd = reportedCostOf(data);
      assert.ok(usd === undefined || (Number.isFinite(usd) && usd >= 0));
    }), { numRuns: runs(500) });
    fc.assert(fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), (usd) => {
      assert.strictEqual(reportedCostOf(JSON.stringify({ type: 'ping', cost: usd.toFixed(6) })), Number(usd.toFixed(6)));
    }));
  });

  it('prices the prompt the way providers bill it: reads, writes (5-minute or 1-hour) and the rest apart', () => {
    const sonnet = pricesFor('claude-sonnet-4-5')!;
    assert.deepStrictEqual(sonnet.base, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    // 1,000 uncached, 8,000 read, 1,000 written, 500 out.
    const u = usage(10_000, 8_000, 1_000, 500);
    assert.ok(Math.abs(computedUsd(u, sonnet.base) - (1_000 * 3 + 8_000 * 0.3 + 1_000 * 3.75 + 500 * 15) / 1e6) < 1e-15);
    assert.ok(Math.abs(computedUsd(u, sonnet.base, true) - (1_000 * 3 + 8_000 * 0.3 + 1_000 * 6 + 500 * 15) / 1e6) < 1e-15, '1-hour writes at 2× input');
    assert.deepStrictEqual(pricesAt(sonnet, 250_000), { input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 }, 'above 200K the long-context tier');
    assert.deepStrictEqual(pricesFor('gpt-5.5')!.base, { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 }, 'no write price listed: input price');
    assert.strictEqual(pricesFor('openai/GPT-5.5')?.base.input, 5, 'a provider prefix and case do not matter');
    assert.strictEqual(pricesFor('no-such-model'), undefined);
    assert.strictEqual(pricesFor('toString'), undefined, 'no inherited property is a price');
    assert.notDeepStrictEqual(pricesFor('deepseek-v4-pro', 'go')!.base, pricesFor('deepseek-v4-pro', 'zen')!.base, "Go's own price first");
  });

  it('property: a cache read never costs more than the same tokens uncached; the reported figure always wins', () => {
    const table = pricesFor('claude-sonnet-4-5')!.base;
    fc.assert(fc.property(fc.nat(100_000), fc.nat(100_000), fc.nat(10_000), (uncached, read, out) => {
      const cold = computedUsd(usage(uncached + read, 0, 0, out), table);
      const warm = computedUsd(usage(uncached + read, read, 0, out), table);
      assert.ok(warm <= cold);
      assert.deepStrictEqual(requestCost({ usage: usage(uncached + read, read, 0, out), reportedUsd: 0.25, prices: pricesFor('claude-sonnet-4-5') }), { usd: 0.25, source: 'reported' });
    }));
    assert.strictEqual(requestCost({ usage: usage(10, 0, 0, 1) }), undefined, 'no frame, no price: no cost');
  });

  it('writes dollars with six decimals trimmed to four, and marks a computed cost on the [usage] line', () => {
    assert.deepStrictEqual([0.0123, 0.000031, 1.5, 0, 0.1234567].map(formatUsd), ['$0.0123', '$0.000031', '$1.5000', '$0.0000', '$0.123457']);
    assert.strictEqual(costField({ usd: 0.0123, source: 'reported' }), 'cost=$0.0123');
    assert.strictEqual(costField({ usd: 0.0123, source: 'computed' }), 'cost≈$0.0123');
    assert.strictEqual(formatUsageLine(usage(100, 50, 0, 10), { usd: 0.0123, source: 'computed' }), '[usage] prompt=100 completion=10 total=110 cached=50 cacheHit=50.0% cost≈$0.0123');
    assert.strictEqual(formatUsageLine(usage(100, 50, 0, 10)), '[usage] prompt=100 completion=10 total=110 cached=50 cacheHit=50.0%', 'unchanged without a cost');
  });
});
