import * as assert from 'assert';
import fc from 'fast-check';
import { withOverride } from '../core/models/applyOverride';
import { catalogLimits } from '../core/models/catalog/catalog';
import { CATALOG } from '../core/models/catalog/catalogData';
import { bundledModelEntries, lookupKnownModel } from '../core/models/knownModels';
import { parseModelList } from '../core/models/parseModelList';
import { validateModelOverrides } from '../core/routes/select/modelOverrides';
import { selectRoute } from '../core/routes/select/selectRoute';
import { tableFamily } from '../core/routes/select/routeTable';
import type { ModelEntry } from '../core/types';

describe('catalogue as the source', () => {
  it('routes every catalogue entry to the route the catalogue names, in its own catalogue', () => {
    for (const catalog of ['zen', 'go'] as const) {
      for (const entry of CATALOG[catalog]) {
        assert.strictEqual(selectRoute({ modelId: entry.id, catalog }).route, entry.route, `${catalog}/${entry.id}`);
        assert.strictEqual(selectRoute({ modelId: entry.id, catalog }).source, 'table');
      }
    }
  });

  it('keeps the prefix list for unlisted ids, gemini- included on Zen', () => {
    assert.strictEqual(tableFamily('gemini-9-ultra', 'zen')?.route, 'gemini');
    assert.strictEqual(tableFamily('claude-sonnet-9', 'zen')?.route, 'messages');
    assert.strictEqual(selectRoute({ modelId: 'unlisted-thing', catalog: 'zen' }).route, 'chat');
    assert.strictEqual(selectRoute({ modelId: 'gemini-3-flash', catalog: 'zen', override: { api: 'chat' } }).route, 'chat');
  });

  it('takes limits from the catalogue first (gateway cap included), the old table after, unknown ids none', () => {
    for (const entry of CATALOG.zen) {
      const limits = catalogLimits('zen', entry.id);
      const known = lookupKnownModel(entry.id, 'zen');
      if (limits?.contextWindow) assert.strictEqual(known?.contextWindow, limits.contextWindow, entry.id);
      if (limits?.maxOutputTokens) assert.strictEqual(known?.maxOutputTokens, limits.maxOutputTokens, entry.id);
      if (entry.gatewayMaxOutput !== undefined) assert.ok((known?.maxOutputTokens ?? Infinity) <= entry.gatewayMaxOutput, entry.id);
    }
    assert.strictEqual(lookupKnownModel('kimi-k2-0905')?.contextWindow, 262_144, 'the old table still fills unlisted ids');
    assert.strictEqual(lookupKnownModel('nothing-like-it'), undefined);
  });

  it('lets the /models answer win where it carries limits, the catalogue fill where it does not', () => {
    const [listed, bare, unknown] = parseModelList({ data: [{ id: 'claude-opus-4-7', context_length: 1234 }, { id: 'gemini-3-flash' }, { id: 'zz-new' }] }, 'zen')
      .sort((a, b) => ['claude-opus-4-7', 'gemini-3-flash', 'zz-new'].indexOf(a.id) - ['claude-opus-4-7', 'gemini-3-flash', 'zz-new'].indexOf(b.id));
    assert.deepStrictEqual([listed.contextWindow, listed.limitSource], [1234, 'endpoint']);
    assert.deepStrictEqual([bare.contextWindow, bare.imageInput, bare.limitSource], [1_048_576, true, 'bundled']);
    assert.deepStrictEqual([unknown.contextWindow, unknown.limitSource], [undefined, 'unknown']);
  });

  it('lists the catalogue for the keyless picker, sorted, one per id', () => {
    const entries = bundledModelEntries('zen');
    assert.deepStrictEqual(entries.map((e) => e.id), [...new Set(CATALOG.zen.map((e) => e.id))].sort((a, b) => a.localeCompare(b)));
    assert.ok(bundledModelEntries('go').some((e) => e.id === CATALOG.go[0].id));
  });
});

describe('opencode.models per-model overrides', () => {
  it('accepts every field and explains every bad value without losing the good ones', () => {
    const { byModel, problems } = validateModelOverrides({
      a: { api: 'gemini', contextWindow: 50_000, maxOutputTokens: 4_000, imageInput: false, reasoningEffort: 'high' },
      b: { contextWindow: -1, maxOutputTokens: 1.5, imageInput: 'yes', reasoningEffort: 'turbo', api: 'chat' },
    });
    assert.deepStrictEqual(byModel.get('a'), { api: 'gemini', contextWindow: 50_000, maxOutputTokens: 4_000, imageInput: false, reasoningEffort: 'high' });
    assert.deepStrictEqual(byModel.get('b'), { api: 'chat' });
    assert.strictEqual(problems.length, 4);
    assert.ok(problems.every((p) => p.startsWith('opencode.models["b"]') && p.endsWith('it was ignored.')));
  });

  it('overrides exactly the fields set, and nothing else (property)', () => {
    const entry: ModelEntry = { id: 'm', name: 'm', contextWindow: 100_000, maxOutputTokens: 8_000, toolCalling: true, imageInput: true, limitSource: 'bundled' };
    fc.assert(
      fc.property(fc.record({ contextWindow: fc.integer({ min: 1 }), maxOutputTokens: fc.integer({ min: 1 }), imageInput: fc.boolean() }, { requiredKeys: [] }), (override) => {
        const out = withOverride(entry, override);
        assert.strictEqual(out.contextWindow, override.contextWindow ?? entry.contextWindow);
        assert.strictEqual(out.maxOutputTokens, override.maxOutputTokens ?? entry.maxOutputTokens);
        assert.strictEqual(out.imageInput, override.imageInput ?? entry.imageInput);
        assert.strictEqual(out.limitSource, override.contextWindow !== undefined ? 'setting' : 'bundled');
        assert.deepStrictEqual([out.id, out.toolCalling], ['m', true]);
      }),
    );
  });
});
