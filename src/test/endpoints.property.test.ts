/**
 * Endpoints at once (core/config/endpoints.ts, core/state/scopedStore.ts): the settings list, pick ids, each endpoint's
 * overrides, and saved state kept per endpoint, on random input.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { BUILT_IN_ENDPOINTS, defaultEndpoint, endpointSettings, fromPickId, pickId, resolveEndpoints, type EndpointConfig } from '../core/config/endpoints';
import { resolveSettings } from '../core/config/settings';
import { moveUnscopedState, scopedKey, scopedStore } from '../core/state/scopedStore';
import { MemoryStore } from './support/engineHarness';
import { EndpointRegistry } from '../vscode/endpointParts';
import type { ModelEntry } from '../core/types';
import { runs } from './support/propertyRuns';

const ID = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,8}$/);
const URL_ARB = fc.constantFrom('https://a.example/v1', 'https://b.example/v1', 'http://127.0.0.1:9/v1', 'https://opencode.ai/zen/v1', 'https://opencode.ai/zen/go/v1', 'http://gw.example/zen');
const SECRET = 'sk-live-9f8e7d6c5b4a';
const BAD_ITEM = fc.constantFrom<unknown>(
  'openrouter',
  42,
  null,
  [],
  { id: 'UPPER', baseUrl: 'https://x.example/v1' },
  { id: 'x', baseUrl: 'ftp://x.example' },
  { id: 'leaky', baseUrl: `https://user:${SECRET}@x.example/v1` },
  { id: 'query', baseUrl: `https://x.example/v1?key=${SECRET}` },
  { id: 'cat', baseUrl: 'https://c.example/v1', catalog: 'openai' },
  { baseUrl: 'https://noid.example/v1' },
);
const GOOD_ITEM = fc.oneof(
  fc.constantFrom<unknown>('go', 'zen'),
  fc.record({ id: ID, baseUrl: URL_ARB, label: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }), catalog: fc.option(fc.constantFrom('zen', 'go', 'none'), { nil: undefined }) }, { requiredKeys: ['id', 'baseUrl'] }),
);
const FIRST: EndpointConfig = defaultEndpoint('http://127.0.0.1:4000/v1', undefined);

describe('endpoints at once', () => {
  it('the settings list: default first, ids and URLs unique, every unusable item one warning, no secret in any', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(GOOD_ITEM, BAD_ITEM), { maxLength: 8 }), (items) => {
        const warnings: string[] = [];
        const endpoints = resolveEndpoints(items, FIRST, (w) => warnings.push(w));
        assert.deepStrictEqual(endpoints[0], FIRST);
        assert.strictEqual(new Set(endpoints.map((e) => e.id)).size, endpoints.length, 'unique ids');
        assert.strictEqual(new Set(endpoints.map((e) => e.baseUrl)).size, endpoints.length, 'unique URLs');
        // Every item is either kept or explained, never both, never silently dropped.
        assert.strictEqual(endpoints.length - 1 + warnings.length, items.length);
        for (const endpoint of endpoints) {
          assert.match(endpoint.id, /^[a-z0-9][a-z0-9_-]{0,31}$/);
          assert.ok(!endpoint.baseUrl.endsWith('/'));
          assert.ok(endpoint.label.length > 0);
        }
        for (const warning of warnings) assert.ok(!warning.includes(SECRET), warning);
      }),
    );
  });

  it('a built-in id is OpenCode Go or Zen; with a URL it is that endpoint behind a proxy, with its catalogue', () => {
    const endpoints = resolveEndpoints(['zen', { id: 'go', baseUrl: 'https://proxy.example/go/v1/' }], FIRST, assert.fail);
    assert.deepStrictEqual(endpoints[1], BUILT_IN_ENDPOINTS.zen);
    assert.deepStrictEqual(endpoints[2], { id: 'go', label: 'OpenCode Go', baseUrl: 'https://proxy.example/go/v1', catalog: 'go' });
  });

  it('the old single-endpoint settings stay what they were: the preset or the base URL is the default endpoint', () => {
    const read = (values: Record<string, unknown>) => resolveSettings((key) => values[key], assert.fail);
    assert.deepStrictEqual(read({}).endpoints, [BUILT_IN_ENDPOINTS.go]);
    assert.deepStrictEqual(read({ preset: 'zen' }).endpoints, [BUILT_IN_ENDPOINTS.zen]);
    assert.deepStrictEqual(read({ baseUrl: 'http://127.0.0.1:11434/v1' }).endpoints, [{ id: 'custom', label: '127.0.0.1:11434', baseUrl: 'http://127.0.0.1:11434/v1', catalog: undefined }]);
    const proxied = read({ baseUrl: 'https://gw.example/v1', endpointCatalog: 'zen', endpoints: ['go'] });
    assert.deepStrictEqual(proxied.endpoints?.map((e) => [e.id, e.label, e.catalog]), [['custom', 'gw.example (OpenCode Zen)', 'zen'], ['go', 'OpenCode Go', 'go']]);
  });

  it('pick ids: bare on the default endpoint, <id>/<model> elsewhere, and back to the same endpoint and model', () => {
    fc.assert(
      fc.property(fc.uniqueArray(ID, { minLength: 1, maxLength: 5 }), fc.nat(), fc.stringMatching(/^[A-Za-z0-9][\w.:/-]{0,20}$/), (ids, which, model) => {
        const endpoints = ids.map((id): EndpointConfig => ({ id, label: id, baseUrl: `https://${id}.example/v1` }));
        const endpoint = endpoints[which % endpoints.length];
        const id = pickId(endpoints, endpoint, model);
        const namesAnEndpoint = endpoints.some((e) => model.startsWith(`${e.id}/`));
        assert.strictEqual(id === model, endpoint === endpoints[0] && !namesAnEndpoint);
        assert.deepStrictEqual(fromPickId(endpoints, id), { endpoint, modelId: model });
      }),
    );
  });

  it('pick ids with colliding endpoint ids and model ids containing "/": every listed model has its own pick id, resolved to the endpoint that listed it', () => {
    const segment = fc.oneof(ID, fc.stringMatching(/^[A-Za-z0-9][\w.:-]{0,6}$/));
    fc.assert(
      fc.property(fc.uniqueArray(ID, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.array(segment, { minLength: 1, maxLength: 3 })), { maxLength: 30 }), (ids, listed) => {
        const endpoints = ids.map((id): EndpointConfig => ({ id, label: id, baseUrl: `https://${id}.example/v1` }));
        // Models named after endpoints (`other/foo` on the default endpoint beside an endpoint "other") on purpose.
        const models = listed.map(([which, prefix, parts]) => ({
          endpoint: endpoints[which % endpoints.length],
          modelId: (prefix % 2 === 0 ? [ids[prefix % ids.length], ...parts] : parts).join('/'),
        }));
        const byPick = new Map<string, { endpoint: EndpointConfig; modelId: string }>();
        for (const model of models) {
          const id = pickId(endpoints, model.endpoint, model.modelId);
          const before = byPick.get(id);
          if (before) assert.deepStrictEqual(before, model, `pick id ${id} is shared by two different models`);
          byPick.set(id, model);
          assert.deepStrictEqual(fromPickId(endpoints, id), model);
        }
      }),
    );
  });

  it('the default endpoint lists other/foo beside an endpoint "other": two pick ids, each to its own endpoint', () => {
    const endpoints = resolveEndpoints([{ id: 'other', baseUrl: 'https://other.example/v1' }], FIRST, assert.fail);
    const mine = pickId(endpoints, endpoints[0], 'other/foo');
    const theirs = pickId(endpoints, endpoints[1], 'foo');
    assert.deepStrictEqual([mine, theirs], ['custom/other/foo', 'other/foo']);
    assert.deepStrictEqual(fromPickId(endpoints, mine), { endpoint: endpoints[0], modelId: 'other/foo' });
    assert.deepStrictEqual(fromPickId(endpoints, theirs), { endpoint: endpoints[1], modelId: 'foo' });
  });

  it('the registry: every model it lists resolves, by its pick id, to the endpoint that listed it and that model', async () => {
    const segment = fc.oneof(ID, fc.stringMatching(/^[A-Za-z0-9][\w.:-]{0,6}$/));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(ID, { minLength: 2, maxLength: 4 }), fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.nat(), segment), { maxLength: 20 }), async (ids, listed) => {
        const items = ids.slice(1).map((id) => ({ id, baseUrl: `https://${id}.example/v1` }));
        const settings = { ...resolveSettings(() => undefined, assert.fail) };
        settings.endpoints = resolveEndpoints(items, { id: ids[0], label: ids[0], baseUrl: `https://${ids[0]}.example/v1` }, assert.fail);
        const lists = new Map<string, ModelEntry[]>(ids.map((id) => [id, []]));
        for (const [which, named, prefix, rest] of listed) {
          const modelId = named ? `${ids[prefix % ids.length]}/${rest}` : rest;
          const list = lists.get(ids[which % ids.length]) as ModelEntry[];
          if (!list.some((m) => m.id === modelId)) list.push({ id: modelId, name: modelId, toolCalling: true, imageInput: false, limitSource: 'unknown' });
        }
        const registry = new EndpointRegistry(() => settings, (id, isDefault, config) => ({
          config,
          isDefault,
          engine: undefined as never,
          list: { models: async () => lists.get(id) ?? [], find: (modelId: string) => lists.get(id)?.find((m) => m.id === modelId) } as never,
          dispose: () => undefined,
        }));
        const shown = await registry.models();
        assert.strictEqual(shown.length, [...lists.values()].reduce((n, l) => n + l.length, 0), 'every listed model is shown, none hidden by a collision');
        for (const { part, entry, pickId: id } of shown) {
          const { part: resolved, modelId } = registry.resolve(id);
          assert.strictEqual(resolved, part, `${id} resolves to the endpoint that listed it`);
          assert.strictEqual(modelId, entry.id);
          assert.strictEqual(registry.find(id), entry);
        }
        registry.dispose();
      }),
      { numRuns: runs(60) },
    );
  });

  it("each endpoint's overrides: a bare id everywhere, <id>/<model> on that endpoint only and winning there", () => {
    const base = resolveSettings(() => undefined, assert.fail);
    const endpoints = resolveEndpoints(['zen'], BUILT_IN_ENDPOINTS.go, assert.fail);
    const settings = { ...base, endpoints, models: { 'zen/glm-5': { contextWindow: 50_000 }, 'glm-5': { contextWindow: 70_000 }, 'openai/gpt-x': { contextWindow: 9_000 } } };
    const zen = endpointSettings(settings, endpoints[1]);
    const go = endpointSettings(settings, endpoints[0]);
    assert.strictEqual(zen.models?.['glm-5']?.contextWindow, 50_000);
    assert.strictEqual(go.models?.['glm-5']?.contextWindow, 70_000);
    assert.strictEqual(go.models?.['zen/glm-5'], undefined);
    const pinned = endpointSettings({ ...settings, models: { 'go/glm-5': { contextWindow: 40_000 }, 'glm-5': { contextWindow: 70_000 } } }, endpoints[0]);
    assert.strictEqual(pinned.models?.['glm-5']?.contextWindow, 40_000, 'the default endpoint takes its own prefix too');
    assert.strictEqual(zen.models?.['openai/gpt-x']?.contextWindow, 9_000, 'a slash id that names no endpoint is a model id');
    assert.deepStrictEqual([zen.baseUrl, zen.catalog, go.baseUrl, go.catalog], [BUILT_IN_ENDPOINTS.zen.baseUrl, 'zen', BUILT_IN_ENDPOINTS.go.baseUrl, 'go']);
  });

  it('saved state: each endpoint reads and writes its own keys; the state from before scopes moves to the default one, nothing lost', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('k1', 'k2', 'k3'), fc.jsonValue()), fc.dictionary(fc.constantFrom('k1', 'k2', 'k3'), fc.jsonValue()), async (bare, scoped) => {
        const store = new MemoryStore();
        for (const [key, value] of Object.entries(bare)) store.update(key, value);
        for (const [key, value] of Object.entries(scoped)) store.update(scopedKey(key, 'go'), value);
        const keys = ['k1', 'k2', 'k3'];
        const before = scopedStore(store, 'go', true);
        const seenBefore = keys.map((key) => before.get(key));
        await moveUnscopedState(store, keys, 'go');
        const after = scopedStore(store, 'go', true);
        assert.deepStrictEqual(keys.map((key) => after.get(key)), seenBefore, 'the default endpoint reads the same before and after the move');
        for (const key of keys) {
          const value = bare[key];
          if (value !== undefined) assert.ok([store.get(key), store.get(scopedKey(key, 'go'))].some((v) => JSON.stringify(v) === JSON.stringify(value)), 'no value lost');
          assert.strictEqual(scopedStore(store, 'zen').get(key), undefined, 'another endpoint sees none of it');
        }
        scopedStore(store, 'zen').update('k1', 'zen-only');
        assert.notStrictEqual(after.get('k1'), 'zen-only');
      }),
    );
  });
});
