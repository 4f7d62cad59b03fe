/**
 * The calibration survives a restart whole: factor AND spread (the spread sets the cut's safety margin, so a
 * restart that forgot it would plan a different, riskier cut). Records saved before the spread was persisted (a
 * bare factor) still load; malformed ones are dropped with the one [state] WARN, never a crash.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { ChatMessage } from '../core/types';
import { chat, engineFor, MemoryStore, preparedBy, runOnce } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { defaultSettings, filler } from './support/trimHarness';
import { runs } from './support/propertyRuns';
import { CALIBRATION, Calibrations, MAX_SPREAD } from '../core/trim/trimState';
import { cutGeometry, marginRatio, SAFETY_MARGIN_RATIO } from '../core/trim/budget';

const KEY = 'opencode.calibrations';
const NO_SERVER = 'http://127.0.0.1:1/v1';

type Entry = { kind: 'new'; factor: number; spread: number } | { kind: 'old'; factor: number } | { kind: 'bad'; value: unknown };

const factorArb = fc.double({ min: CALIBRATION.minFactor, max: CALIBRATION.maxFactor, noNaN: true });
const spreadArb = fc.oneof(fc.constant(0), fc.constant(MAX_SPREAD), fc.double({ min: 0, max: MAX_SPREAD, noNaN: true }));
/** The spread an entry loads with: -0 is the spread 0, loaded as +0 (savedRecords.ts). */
const loadedSpread = (spread: number): number => (spread === 0 ? 0 : spread);
/** Numbers no factor can be: out of range either way, not finite, not a number. */
const badFactor = fc.oneof(
  fc.double({ max: CALIBRATION.minFactor, maxExcluded: true }),
  fc.double({ min: CALIBRATION.maxFactor, minExcluded: true }),
  fc.constantFrom<unknown>(Number.NaN, '1.2', null, true, [], {}),
);
/** -0 is not below 0 (`-0 >= 0`): it is the spread 0, so it is no bad spread (seed 1663455170 drew it here). */
const badSpread = fc.oneof(
  fc.double({ max: 0, maxExcluded: true, noNaN: true }).filter((v) => !Object.is(v, -0)),
  fc.double({ min: MAX_SPREAD, minExcluded: true }),
  fc.constantFrom<unknown>(Number.NaN, '0.01', null, [0.01], {}),
);
const entryArb: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ kind: fc.constant('new' as const), factor: factorArb, spread: spreadArb }),
  fc.record({ kind: fc.constant('old' as const), factor: factorArb }),
  fc.record({
    kind: fc.constant('bad' as const),
    value: fc.oneof(
      badFactor,
      badFactor.map((factor) => ({ factor, spread: 0.01 })),
      fc.tuple(factorArb, badSpread).map(([factor, spread]) => ({ factor, spread })),
      spreadArb.map((spread) => ({ spread })),
    ),
  }),
);
const storedArb = fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), entryArb), { selector: ([model]) => model, maxLength: 30 });

const stored = (entry: Entry): unknown => (entry.kind === 'new' ? { factor: entry.factor, spread: entry.spread } : entry.kind === 'old' ? entry.factor : entry.value);

/** A model whose reported count jitters around a factor: a few samples of (raw estimate, reported). */
const samplesArb = fc.tuple(
  fc.double({ min: 0.6, max: 2.2, noNaN: true }),
  fc.double({ min: 0, max: 0.04, noNaN: true }),
  fc.array(fc.tuple(fc.integer({ min: 1_000, max: 400_000 }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: 1, maxLength: 40 }),
);

function copyOf(store: MemoryStore): MemoryStore {
  const copy = new MemoryStore();
  for (const [key, value] of store.values) copy.update(key, value);
  return copy;
}

function longHistory(turns: number, tokensEach: number): ChatMessage[] {
  return chat(...Array.from({ length: turns }, (_, i) => `turn ${i} ${filler(tokensEach, i)}`));
}

describe('the calibration, spread included, survives a restart', function () {
  this.timeout(120_000);
  const server = useFakeServer();

  it('calibration-load-property: random stored calibrations (new, old-format, malformed) load without throwing and keep every valid entry', () => {
    fc.assert(
      fc.property(storedArb, (entries) => {
        const store = new MemoryStore();
        store.values.set(KEY, Object.fromEntries(entries.map(([model, entry]) => [model, stored(entry)])));
        const { engine, log } = engineFor(NO_SERVER, {}, store);
        // A Map, not an object: model ids such as "toString" are ids like any other.
        const expected = new Map<string, { factor: number; spread: number }>();
        for (const [model, entry] of entries) {
          if (entry.kind !== 'bad') expected.set(model, { factor: entry.factor, spread: entry.kind === 'new' ? loadedSpread(entry.spread) : 0 });
          const want = expected.get(model) ?? { factor: 1, spread: 0 };
          assert.strictEqual(engine.calibrations.factor(model), want.factor, `factor of ${model}`);
          assert.strictEqual(engine.calibrations.spread(model), want.spread, `spread of ${model}`);
        }
        // What the next save writes: every valid entry, in the new form; nothing malformed.
        assert.deepStrictEqual(new Map(Object.entries(engine.calibrations.toJSON())), expected);
        const bad = entries.filter(([, entry]) => entry.kind === 'bad').length;
        const warns = log.messages('warn').filter((m) => m.startsWith('[state]') && m.includes(KEY));
        assert.deepStrictEqual(warns, bad === 0 ? [] : [`[state] Dropped ${bad} invalid record(s) from ${KEY} (saved by another version or edited by hand); they will be learned again.`]);
      }),
      // The entry seed 1663455170 drew as a "bad spread": -0, a valid spread 0 that must load as +0.
      { numRuns: runs(200), examples: [[[['m-zero', { kind: 'new', factor: 1, spread: -0 }]]]] },
    );
  });

  it('calibration-restart-property: after a save and a restart each model has the same factor, spread and margin', () => {
    fc.assert(
      fc.property(fc.array(samplesArb, { minLength: 1, maxLength: 3 }), fc.integer({ min: 10_000, max: 2_000_000 }), (models, budget) => {
        const before = new Calibrations();
        models.forEach(([center, jitter, samples], m) => {
          for (const [raw, noise] of samples) before.observe(`m${m}`, raw, Math.round(raw * center * (1 + jitter * noise)));
        });
        const store = new MemoryStore();
        store.update(KEY, before.toJSON());
        const after = engineFor(NO_SERVER, {}, store).engine.calibrations;
        models.forEach((_, m) => {
          const model = `m${m}`;
          assert.strictEqual(after.factor(model), before.factor(model));
          assert.strictEqual(after.spread(model), before.spread(model));
          const trim = defaultSettings.historyTrim;
          assert.deepStrictEqual(cutGeometry(budget, trim, after.spread(model)), cutGeometry(budget, trim, before.spread(model)));
        });
      }),
      { numRuns: runs(200) },
    );
  });

  it('calibration-restart-same-cut: an engine restarted on the saved state plans the same cut, margin included', async () => {
    // Only the token ceiling decides (filler text runs over the default bytes-per-token ceiling).
    const settings = { maxRequestBytes: 1_000_000_000 };
    const store = new MemoryStore();
    const { engine: running } = engineFor(server().url, settings, store);
    // A model whose count jitters by ±1.5% around the factor this server shows (≈ 1.1): the spread rises past 1%.
    for (let n = 0; n < 12; n++) running.calibrations.observe('fake-large', 100_000, Math.round(110_000 * (1 + (n % 2 ? 0.015 : -0.015))));
    // One real request: the engine accounts its usage and saves the calibration the way it always does.
    await runOnce(running, 'fake-large', longHistory(5, 1_000));
    const learned = { factor: running.calibrations.factor('fake-large'), spread: running.calibrations.spread('fake-large') };
    assert.ok(learned.spread > 0.01, `spread ${learned.spread}`);
    assert.deepStrictEqual((store.values.get(KEY) as Record<string, unknown>)['fake-large'], learned, 'saved as {factor, spread}');

    // A budget that puts the whole history between the two ceilings: over the learned margin's, under 0.5%'s.
    const request = { purpose: 'conversation' as const, modelId: 'fake-large', messages: longHistory(41, 1_000), tools: [] };
    const full = (await preparedBy(engineFor(server().url, settings, copyOf(store)).engine, request, { contextWindow: 10_000_000 })).trim.estTokens;
    const budget = Math.ceil(full / (1 - (SAFETY_MARGIN_RATIO + marginRatio(learned.spread)) / 2));
    const limits = { contextWindow: budget + 8_000, maxOutputTokens: 8_000 };

    const { engine: restarted } = engineFor(server().url, settings, store);
    // What a restart gave before the spread was persisted: the factor alone.
    const factorOnly = copyOf(store);
    factorOnly.values.set(KEY, { 'fake-large': learned.factor });
    const { engine: forgetful } = engineFor(server().url, settings, factorOnly);
    // One after the other: each engine's own answer is accounted (and saved) after it prepared.
    const beforeRestart = await preparedBy(running, request, limits);
    const afterRestart = await preparedBy(restarted, request, limits);
    const withoutSpread = await preparedBy(forgetful, request, limits);
    assert.strictEqual(beforeRestart.budget.tokens, budget);
    assert.ok(beforeRestart.trim.removed > 0 && withoutSpread.trim.removed === 0, `the margin decides this cut (removed ${beforeRestart.trim.removed} vs ${withoutSpread.trim.removed} with a 0.5% margin)`);
    assert.deepStrictEqual(afterRestart.geometry, beforeRestart.geometry);
    assert.strictEqual(afterRestart.trim.firstKept, beforeRestart.trim.firstKept);
    assert.deepStrictEqual(afterRestart.trim.messages, beforeRestart.trim.messages);
  });
});
