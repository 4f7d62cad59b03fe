/**
 * Estimates for ids no data lists (core/models/estimate.ts): a new id of a known family gets the limits, reasoning and
 * effort levels of the newest model of the same family and variant on that endpoint, marked as estimated; nothing
 * is estimated for an unknown family or a custom endpoint; the id's own data, once it arrives, and a learned
 * ceiling replace the estimate. Random model data, random new ids; a few real ids as examples.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { readId } from '../core/models/estimate';
import type { ModelCard, ModelData } from '../core/models/modelData';
import { MODEL_TABLE, ModelTable } from '../core/models/modelTable';
import { runs } from './support/propertyRuns';
import { type EffortLevel } from '../core/routes/select/reasoningControl';

const FAMILIES = ['gpt', 'claude', 'gemini', 'glm', 'kimi', 'nova', 'orca'];
const VARIANTS = ['mini', 'pro', 'flash', 'codex', 'max', 'opus', 'haiku', 'free'];
/** Words no generated model has: a code name says nothing about the variant. */
const CODE_NAMES = ['sol', 'aurora', 'zephyr', 'quill'];
const LEVELS: EffortLevel[] = ['low', 'medium', 'high', 'xhigh'];

interface Spec {
  family: string;
  variant: string[];
  version: [number, number];
  /** The version glued to the family word (`qwen3.6`) instead of a token of its own (`gpt-5.4`). */
  glued: boolean;
  released: string;
  window: number;
  input: number | undefined;
  output: number;
  levels: EffortLevel[];
}

const spec = fc.record({
  family: fc.constantFrom(...FAMILIES),
  variant: fc.uniqueArray(fc.constantFrom(...VARIANTS), { maxLength: 2 }),
  version: fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 9 })),
  glued: fc.boolean(),
  released: fc.integer({ min: 0, max: 900 }).map((d) => new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10)),
  window: fc.integer({ min: 8, max: 2_000 }).map((k) => k * 1_000),
  input: fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
  output: fc.integer({ min: 1, max: 64 }).map((k) => k * 1_000),
  levels: fc.subarray(LEVELS),
}).map((s): Spec => ({ ...s, input: s.input === undefined ? undefined : Math.floor((s.window * s.input) / 100) }));

function idOf(s: Pick<Spec, 'family' | 'variant' | 'version' | 'glued'>, extra: string[] = []): string {
  const version = `${s.version[0]}.${s.version[1]}`;
  return (s.glued ? [`${s.family}${version}`, ...s.variant, ...extra] : [s.family, version, ...s.variant, ...extra]).join('-');
}

function cardOf(s: Spec): ModelCard {
  const card: ModelCard = { route: 'chat', contextWindow: s.window, maxOutputTokens: Math.min(s.output, s.window), released: s.released, reasoningControl: { control: 'reasoning_effort', levels: s.levels } };
  if (s.input !== undefined && s.input < s.window) card.inputLimit = s.input;
  return card;
}

function dataOf(specs: Spec[]): { data: ModelData; byId: Map<string, Spec> } {
  const byId = new Map<string, Spec>();
  for (const s of specs) if (!byId.has(idOf(s))) byId.set(idOf(s), s);
  const zen = Object.fromEntries([...byId].map(([id, s]) => [id, cardOf(s)]));
  return { data: { date: '2027-01-01', source: 'test', zen, go: {} }, byId };
}

/** Newest first, as the family's newest model is meant: release date, then version, then id. */
function newest(candidates: [string, Spec][]): [string, Spec] {
  return [...candidates].sort(([ia, a], [ib, b]) => b.released.localeCompare(a.released) || b.version[0] - a.version[0] || b.version[1] - a.version[1] || ia.localeCompare(ib))[0];
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((w) => b.includes(w));

describe('estimates for new ids of a known family', () => {
  it('estimate-newest: a random new id of a known family and variant gets that family\'s newest limits, reasoning and effort levels, marked estimated', () => {
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 30 }), fc.nat(), fc.constantFrom(...CODE_NAMES, ''), fc.boolean(), (specs, pick, codeName, shuffle) => {
        const { data, byId } = dataOf(specs);
        const [, chosen] = [...byId][pick % byId.size];
        // A version no listed model has, the variant words in any order, maybe a code name.
        const variant = shuffle ? [...chosen.variant].reverse() : chosen.variant;
        const fresh = idOf({ family: chosen.family, variant, version: [chosen.version[0] + 10, 0], glued: !chosen.glued }, codeName ? [codeName] : []);
        const [fromId, from] = newest([...byId].filter(([, s]) => s.family === chosen.family && sameSet(s.variant, chosen.variant)));
        const facts = new ModelTable(data).lookup({ modelId: fresh, catalog: 'zen' });
        assert.strictEqual(facts.estimatedFrom, fromId, fresh);
        assert.strictEqual(facts.windowSource, 'estimate');
        assert.strictEqual(facts.contextWindow, from.window);
        assert.strictEqual(facts.inputLimit, from.input !== undefined && from.input < from.window ? from.input : undefined);
        assert.strictEqual(facts.maxOutputTokens, Math.min(from.output, from.window));
        assert.deepStrictEqual(facts.offeredControl?.levels, from.levels);
        assert.strictEqual(facts.reasons, true);
        assert.strictEqual(facts.prices, undefined, 'prices are never guessed');
      }),
      { numRuns: runs(300) },
    );
  });

  it('estimate-none: no estimate for a family no model has, for a custom endpoint, or once the id has data of its own', () => {
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 20 }), fc.nat(), (specs, pick) => {
        const { data, byId } = dataOf(specs);
        const table = new ModelTable(data);
        const [id, chosen] = [...byId][pick % byId.size];
        const fresh = idOf({ ...chosen, version: [chosen.version[0] + 10, 1] });
        assert.strictEqual(table.lookup({ modelId: 'zebra-3-mini', catalog: 'zen' }).estimatedFrom, undefined);
        assert.strictEqual(table.lookup({ modelId: 'zebra-3-mini', catalog: 'zen', fallbackWindow: 128_000 }).windowSource, 'fallback');
        assert.strictEqual(table.lookup({ modelId: fresh }).windowSource, 'unknown', 'a custom endpoint: a local model of that name is not OpenCode\'s');
        assert.strictEqual(table.lookup({ modelId: id, catalog: 'zen' }).estimatedFrom, undefined, 'a listed id is its own card');
        // Live data that lists the new id replaces the estimate.
        table.setLive({ date: '2027-02-01', source: 'live', zen: { ...data.zen, [fresh]: { route: 'chat', contextWindow: 77_000 } }, go: {} });
        const live = table.lookup({ modelId: fresh, catalog: 'zen' });
        assert.deepStrictEqual([live.windowSource, live.contextWindow, live.estimatedFrom], ['live', 77_000, undefined]);
      }),
      { numRuns: runs(150) },
    );
  });

  it('estimate-learned: a ceiling learned from a refusal replaces an estimate that was too large, until data explains the refusal', () => {
    const table = new ModelTable({ date: '2027-01-01', source: 'test', zen: { 'nova-2': { route: 'chat', contextWindow: 1_000_000, released: '2026-01-01' } }, go: {} });
    const learned = { refused: 300_000, ceiling: 250_000, fits: 250_000 };
    const facts = table.lookup({ modelId: 'nova-3', catalog: 'zen', learned });
    assert.deepStrictEqual([facts.windowSource, facts.inputLimit, facts.inputSource], ['estimate', 250_000, 'learned']);
    table.setLive({ date: '2027-02-01', source: 'live', zen: { 'nova-3': { route: 'chat', contextWindow: 262_144 } }, go: {} });
    const explained = table.lookup({ modelId: 'nova-3', catalog: 'zen', learned });
    assert.deepStrictEqual([explained.contextWindow, explained.inputLimit], [262_144, undefined], 'the data now says why 300K was refused');
  });

  it('reads ids as family, variant words and version', () => {
    assert.deepStrictEqual(readId('gpt-5.4-mini'), { family: 'gpt', variant: ['mini'], version: [5, 4] });
    assert.deepStrictEqual(readId('opencode/qwen3.6-plus'), { family: 'qwen', variant: ['plus'], version: [3, 6] });
    assert.deepStrictEqual(readId('kimi-k2.7-code'), { family: 'kimi', variant: ['code'], version: [2, 7] });
    assert.deepStrictEqual(readId('claude-3-5-haiku'), { family: 'claude', variant: ['haiku'], version: [3, 5] });
    assert.deepStrictEqual(readId('mimo-v2-flash-free'), { family: 'mimo', variant: ['flash', 'free'], version: [2] });
  });

  it('on the bundled data: new GPT, Claude, Gemini and GLM ids stand in for their family\'s newest', () => {
    const from = (id: string, catalog: 'zen' | 'go' = 'zen') => MODEL_TABLE.lookup({ modelId: id, catalog });
    const gpt = from('gpt-7');
    assert.deepStrictEqual([gpt.estimatedFrom, gpt.contextWindow, gpt.inputLimit, gpt.route], ['gpt-5.5', 1_050_000, 922_000, 'responses']);
    assert.ok(gpt.offeredControl && gpt.offeredControl.levels.length > 0, 'its effort levels');
    assert.strictEqual(from('gpt-7-mini').estimatedFrom, 'gpt-5.4-mini');
    assert.strictEqual(from('claude-opus-5').estimatedFrom, 'claude-opus-4-8');
    assert.strictEqual(from('gemini-4-flash').estimatedFrom, 'gemini-3.5-flash');
    assert.strictEqual(from('glm-6', 'go').estimatedFrom, 'glm-5.2');
    assert.strictEqual(from('zzz-1').estimatedFrom, undefined);
  });
});
