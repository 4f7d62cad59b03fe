/** The bench's pause regime: cache lifetimes and warming priced in dollars on a short ceiling session with pauses. */
import * as assert from 'assert';
import { drawPauses, PAUSE_MAX_MS, PAUSE_MIN_MS, shareLongerThan } from '../bench/pauses/pauseDistribution';
import { BENCH_WARM_MAX, PAUSE_REGIME, runPauseRegime, warmBreakEvenMs, warmTimes } from '../bench/pauses/pauseRegime';
import { pausesMarkdown } from '../bench/report/pausesReport';
import { CACHE_RULES } from '../core/cost/cacheRules';

const SMALL = { ...PAUSE_REGIME, requests: 30, budgetTokens: 40_000, window: 60_000, maxOutputTokens: 8_000, toolTokens: 4_000, systemTokens: 2_000, toolCount: 8 };

describe('bench: pause regime (cache lifetimes, warming, dollars)', () => {
  let result: ReturnType<typeof runPauseRegime>;
  before(() => {
    result = runPauseRegime(SMALL);
  });
  const by = (id: string) => result.variants.find((v) => v.id === id)!;

  it('a longer lifetime or warming turns cold turns warm; 24h and 1h lose no turn to a pause under an hour', () => {
    assert.ok(result.pauses.longerThan5m > 0, 'some pauses outlast 5 minutes');
    for (const [short, long] of [['anthropic-5m', 'anthropic-1h'], ['openai-memory', 'openai-24h']]) {
      assert.ok(by(short).coldRequests > 0, short);
      assert.ok(by(long).coldRequests < by(short).coldRequests, `${long} vs ${short}`);
      assert.ok(by(long).requestsUsd < by(short).requestsUsd, `${long} costs less here`);
    }
    assert.strictEqual(by('openai-24h').requestsUsd <= by('openai-memory').requestsUsd, true, '24h never costs more');
    assert.ok(by('anthropic-5m-warm').coldRequests < by('anthropic-5m').coldRequests);
    assert.ok(by('anthropic-5m-warm').warmingRequests > 0 && by('anthropic-5m-warm').warmingUsd > 0);
    assert.ok(by('anthropic-5m-warm').warmingRequests <= BENCH_WARM_MAX * result.pauses.count);
    assert.strictEqual(by('anthropic-1h').warmingRequests, 0);
  });

  it('break-evens follow the cache rules: warming up to L + (write − read)/read × (L − 30 s)', () => {
    assert.strictEqual(warmBreakEvenMs(CACHE_RULES.anthropic5m), 300_000 + 11.5 * 270_000);
    assert.strictEqual(warmBreakEvenMs(CACHE_RULES.openaiInMemory), 300_000 + 9 * 270_000);
    assert.ok(result.breakEven.longTtlShare > 0 && result.breakEven.longTtlShare < 1);
    assert.deepStrictEqual(warmTimes(1_000_000, 300_000, 3), [270_000, 540_000, 810_000]);
    assert.deepStrictEqual(warmTimes(200_000, 300_000, 3), [], 'a short pause needs no warming');
    assert.deepStrictEqual(warmTimes(600_000, 300_000, 3), [270_000, 540_000]);
  });

  it('pauses: log-uniform between 5 s and an hour, the same for the same seed', () => {
    const pauses = drawPauses(2_000, 7);
    assert.deepStrictEqual(pauses, drawPauses(2_000, 7));
    assert.ok(pauses.every((p) => p >= PAUSE_MIN_MS && p <= PAUSE_MAX_MS));
    const sampled = pauses.filter((p) => p > 300_000).length / pauses.length;
    assert.ok(Math.abs(sampled - shareLongerThan(300_000)) < 0.04, `${sampled} vs ${shareLongerThan(300_000)}`);
    assert.ok(Math.abs(shareLongerThan(300_000) - 0.378) < 0.001);
  });

  it('the report puts every rule side by side in dollars with the break-even lines', () => {
    const md = pausesMarkdown(result);
    for (const v of result.variants) assert.ok(md.includes(`| ${v.label} |`), v.label);
    assert.match(md, /Warming\*\* bridges a pause more cheaply than writing the prefix again up to 56\.8 min/);
  });
});
