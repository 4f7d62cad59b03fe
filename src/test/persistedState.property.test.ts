/**
 * Corrupt or hostile globalState never breaks the extension. Every persisted store is loaded
 * through one helper (core/state/persisted.ts) with a validator per record (core/request/savedRecords.ts): random
 * JSON and near-valid shapes never throw and yield only valid records, with one WARN line per store.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { PersistedStore, validEntries } from '../core/state/persisted';
import { validCalibration, validRefusedParams, validLayout, validReasoning, validTrimState } from '../core/request/savedRecords';
import { validLearnedLimit, MIN_CONTEXT_WINDOW } from '../core/models/learnedLimits';
import { validModelList } from '../core/models/cachedModelList';
import { chat, engineFor, MemoryStore, preparedBy, runOnce } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import * as double from './support/vscodeDouble';
import { activateAgainst } from './support/activatedExtension';
import { runs } from './support/propertyRuns';
import { MAX_EXTRA_GRID_MOVES } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

const KEYS = ['opencode.calibrations', 'opencode.learnedLimits', 'opencode.trimStates', 'opencode.reasoning', 'opencode.unsupportedParams', 'opencode.sessionClaims'];
const MAP_VALIDATORS: [string, (v: unknown) => unknown][] = [
  ['calibrations', validCalibration],
  ['learnedLimits', validLearnedLimit],
  ['trimStates', validTrimState],
  ['reasoning', validReasoning],
  ['unsupportedParams', validRefusedParams],
];

/** Shapes one mistake away from valid: the bugs a hand edit, an old version or a bit flip would make. */
const nearNumber = fc.oneof(fc.constant(null), fc.constant(1), fc.constant(-5), fc.constant(1e300), fc.double(), fc.integer(), fc.constant('12000'), fc.constant(Number.NaN));
const nearTrimState = fc.record(
  { lastRemoved: nearNumber, lastSteps: nearNumber, lastGrid: nearNumber, lastInputLength: nearNumber, extraSteps: fc.oneof(nearNumber, fc.constant(1e9)) },
  { requiredKeys: [] },
);
const nearParams = fc.oneof(fc.constant(5), fc.constant({}), fc.array(fc.constantFrom('temperature', 'top_p', 'bogus', 5, null)), fc.constant('temperature'));
const nearModel = fc.oneof(
  fc.constant(null),
  fc.record({ id: fc.oneof(fc.string(), fc.constant(5)), name: fc.string(), toolCalling: fc.boolean(), imageInput: fc.oneof(fc.boolean(), fc.constant('yes')), limitSource: fc.constantFrom('endpoint', 'bogus'), contextWindow: nearNumber }, { requiredKeys: [] }),
);
const nearModelList = fc.record({ fetchedAt: fc.oneof(nearNumber, fc.constant(undefined)), models: fc.oneof(fc.array(nearModel), fc.constant(null)) }, { requiredKeys: [] });
const anyStoreValue = fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.oneof(nearNumber, nearTrimState, nearParams, fc.string(), fc.jsonValue())));

describe('persisted state: every loader survives random JSON', function () {
  this.timeout(60_000);
  const server = useFakeServer();

  it('persisted-property-loaders: random and near-valid JSON never throws and yields only valid records', () => {
    fc.assert(
      fc.property(anyStoreValue, nearModelList, (raw, list) => {
        for (const [, validate] of MAP_VALIDATORS) {
          const { entries } = validEntries(raw, validate);
          // Valid records are fixed points of their validator: nothing invalid got through.
          for (const [key, value] of entries) assert.deepStrictEqual(validate(value), value, key);
        }
        for (const candidate of [raw, list]) {
          const result = validModelList(candidate);
          if (result.value) {
            assert.ok(Number.isFinite(result.value.fetchedAt));
            assert.ok(result.value.models.every((m) => m && typeof m.id === 'string' && m.id.length > 0));
          }
        }
      }),
      { numRuns: runs(400) },
    );
  });

  it('persisted-property-engine: an engine built on random stored JSON sends a request and warns at most once per store', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(...KEYS.map(() => anyStoreValue)), async (values) => {
        const store = new MemoryStore();
        KEYS.forEach((key, i) => store.values.set(key, values[i]));
        const { engine, log } = engineFor(server().url, {}, store);
        const prepared = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: chat('hello', 'hi', 'again'), tools: [] }, { contextWindow: 200_000 });
        assert.ok(prepared.trim.messages.length >= 1);
        const window = engine.factsFor('fake-large', { contextWindow: 200_000 }).contextWindow ?? 0;
        assert.ok(window >= MIN_CONTEXT_WINDOW, `window ${window}`);
        for (const key of KEYS) assert.ok(log.messages('warn').filter((m) => m.includes(key)).length <= 1, key);
      }),
      { numRuns: runs(150) },
    );
  });

  it('persisted-unsupported-number: an unsupported-parameters entry that is a number or object does not break requests', async () => {
    const store = new MemoryStore();
    store.values.set('opencode.unsupportedParams', { 'fake-large': 5, other: { a: 1 }, ok: ['temperature'] });
    const { engine, log } = engineFor(server().url, {}, store);
    server().enqueueReply({ text: 'works' });
    const { text } = await runOnce(engine, 'fake-large', chat('hi'));
    assert.strictEqual(text, 'works');
    assert.deepStrictEqual(engine.refusedParams, { ok: ['temperature'] });
    assert.deepStrictEqual(log.messages('warn').filter((m) => m.startsWith('[state]')), [
      '[state] Dropped 2 invalid record(s) from opencode.unsupportedParams (saved by another version or edited by hand); they will be learned again.',
    ]);
  });

  it('persisted-learned-limit-floor: a learned limit of 1 is refused; a huge extraSteps is dropped', () => {
    const store = new MemoryStore();
    store.values.set('opencode.learnedLimits', { a: 1, b: 12_000, c: 'x' });
    store.values.set('opencode.trimStates', { s1: { lastRemoved: 0, lastSteps: 0, lastGrid: 0, lastInputLength: 0, extraSteps: 1e9 }, s2: null });
    const { engine } = engineFor('http://127.0.0.1:1/v1', {}, store);
    assert.strictEqual(engine.factsFor('a', { contextWindow: 100_000 }).contextWindow, 100_000);
    assert.strictEqual(engine.factsFor('b', { contextWindow: 100_000 }).contextWindow, 12_000);
    assert.ok(engine.states.get('s1').extraSteps <= MAX_EXTRA_GRID_MOVES);
  });

  it('persisted-reserved-keys: a saved object with a "__proto__" or "constructor" key loads without it and sets no prototype', () => {
    const state = JSON.parse('{"lastRemoved":2,"lastSteps":1,"lastGrid":0,"lastInputLength":9,"extraSteps":0,"__proto__":{"extraSteps":3},"constructor":7}');
    const loaded = validTrimState(state);
    assert.ok(loaded, 'the known fields are valid, so the record is kept');
    assert.strictEqual(Object.getPrototypeOf(loaded), Object.prototype);
    assert.ok(!Object.hasOwn(loaded, '__proto__') && !Object.hasOwn(loaded, 'constructor'));
    assert.strictEqual(loaded.extraSteps, 0);
    const layout = validLayout(JSON.parse('{"route":"messages","slots":[{"kind":"native","item":{"type":"thinking","__proto__":{"signature":"forged"}}}]}'));
    const item = layout?.slots[0].kind === 'native' ? layout.slots[0].item : undefined;
    assert.ok(item && item.type === 'thinking' && item.signature === undefined, JSON.stringify(layout));
  });

  it('persisted-model-cache: a null model entry and a missing fetchedAt neither throw nor freeze the list', async () => {
    const memento = new double.MemoryMemento();
    const ext0 = activateAgainst(server(), {}, memento);
    const key = `opencode.models:${server().url}`;
    ext0.dispose();
    memento.values.set(key, { models: [null, { id: 'old', name: 'old', toolCalling: true, imageInput: false, limitSource: 'endpoint' }] });
    const ext = activateAgainst(server(), {}, memento);
    try {
      const token = new double.CancellationTokenSource().token as never;
      const models = await ext.provider.provideLanguageModelChatInformation({ silent: true }, token);
      assert.ok((models ?? []).some((m) => m.id === 'fake-large'), 'without a fetch time the list was fetched again');
      assert.strictEqual(ext.log.lines.filter((l) => l.message.startsWith('[state]')).length, 1);
    } finally {
      ext.dispose();
    }
    // The saved list is read (and validated) once per activation and save: a hostile one is met at the next start.
    memento.values.set(key, { fetchedAt: Date.now(), models: [null, 7, { id: 'kept', name: 'kept', toolCalling: true, imageInput: false, limitSource: 'endpoint' }] });
    const next = activateAgainst(server(), {}, memento);
    try {
      const again = await next.provider.provideLanguageModelChatInformation({ silent: true }, new double.CancellationTokenSource().token as never);
      assert.deepStrictEqual((again ?? []).map((m) => m.id), ['kept']);
    } finally {
      next.dispose();
    }
  });

  it('persisted-warn-once: a store read many times warns once', () => {
    const log = new MemoryLogger();
    const inner = new MemoryStore();
    inner.values.set('k', { a: 'x', b: 1.5 });
    const persisted = new PersistedStore(inner, log);
    for (let i = 0; i < 3; i++) assert.deepStrictEqual(persisted.loadMap('k', validCalibration), [['b', { factor: 1.5, spread: 0 }]]);
    assert.strictEqual(log.messages('warn').length, 1);
    assert.deepStrictEqual(persisted.loadMap('absent', validCalibration), []);
  });
});
