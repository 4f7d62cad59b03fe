/** The one model table: the generated snapshot, its consistency, the lookup's precedence, the family rule, free tier, prices. */
import * as assert from 'assert';
import * as fs from 'fs';
import fc from 'fast-check';
import { SNAPSHOT } from '../core/models/data/snapshot';
import { fromModelsDev, MAX_MODELS_PER_PROVIDER } from '../core/models/fromModelsDev';
import type { ModelCard, ModelData } from '../core/models/modelData';
import { MODEL_TABLE, ModelTable, pricesFor, familyOf, isFreeTierId, offered, resolveEntry } from '../core/models/modelTable';
import { ROUTE_IDS, type RouteId } from '../core/routeId';
import { SAVED_COPY, SNAPSHOT_FILE, snapshotSource } from '../tools/snapshotUpdate';
import { reasoningControlOf, CONTROLS } from '../core/routes/select/reasoningControl';
import { type ModelQuery } from '../core/models/modelFacts';

const data = (zen: Record<string, ModelCard>, go: Record<string, ModelCard> = {}, date = '2027-01-01'): ModelData => ({ date, source: 'test', zen, go });

describe('model table: the bundled snapshot', () => {
  it('is exactly what `npm run snapshot:update` makes of the saved models.dev copy (never edited by hand)', () => {
    const { text } = snapshotSource(JSON.parse(fs.readFileSync(SAVED_COPY, 'utf8')));
    assert.strictEqual(fs.readFileSync(SNAPSHOT_FILE, 'utf8'), text);
    assert.match(text, /models\.dev data of \d{4}-\d{2}-\d{2}/);
  });

  it('lists both endpoints, with the routes OpenCode serves them on', () => {
    assert.ok(Object.keys(SNAPSHOT.zen).length >= 50 && Object.keys(SNAPSHOT.go).length >= 15);
    const route = (catalog: 'zen' | 'go', id: string) => MODEL_TABLE.lookup({ modelId: id, catalog }).route;
    assert.strictEqual(route('zen', 'gemini-3.1-pro'), 'gemini');
    assert.strictEqual(route('zen', 'opencode/claude-opus-4-7'), 'messages');
    assert.strictEqual(route('zen', 'gpt-5.5'), 'responses');
    assert.strictEqual(route('zen', 'minimax-m3'), 'chat');
    assert.strictEqual(route('go', 'minimax-m3'), 'messages');
    assert.strictEqual(route('go', 'qwen3.7-max'), 'messages');
    assert.strictEqual(SNAPSHOT.zen['glm-5.2'].echoReasoningContent, true);
    assert.strictEqual(SNAPSHOT.zen['claude-opus-4-7'].noTemperature, true);
  });

  it('every card is consistent: known route, output within the window, levels its control can carry on its route', () => {
    for (const catalog of ['zen', 'go'] as const) {
      for (const [id, card] of Object.entries(SNAPSHOT[catalog])) {
        assert.ok(ROUTE_IDS.includes(card.route), id);
        if (card.contextWindow && card.maxOutputTokens) assert.ok(card.maxOutputTokens <= card.contextWindow, id);
        if (card.reasoningControl) {
          const control = CONTROLS[card.reasoningControl.control];
          assert.ok(control.routes.includes(card.route), `${id}: ${card.reasoningControl.control} on ${card.route}`);
          for (const level of card.reasoningControl.levels) assert.ok(control.levels.includes(level), `${id}: ${level}`);
        }
        if (card.echoReasoningContent) assert.strictEqual(card.route, 'chat', id);
      }
    }
  });
});

describe('model table: models.dev conversion', () => {
  const provider = (models: Record<string, unknown>, npm = '@ai-sdk/openai-compatible') => ({ npm, models });

  it('refuses what is not the catalogue, drops a bad model with a reason, keeps the rest', () => {
    assert.strictEqual(fromModelsDev('nope', 'd', 's').data, undefined);
    assert.match(fromModelsDev({ opencode: provider({}) }, 'd', 's').problems.join(), /opencode-go/);
    const many = Object.fromEntries(Array.from({ length: MAX_MODELS_PER_PROVIDER + 1 }, (_, i) => [`m${i}`, {}]));
    assert.match(fromModelsDev({ opencode: provider(many), 'opencode-go': provider({}) }, 'd', 's').problems.join(), /more than/);
    const { data: out, problems } = fromModelsDev({ opencode: provider({ good: { limit: { context: 1000, output: 100 } }, 'Bad Id': {}, worse: 3 }), 'opencode-go': provider({}) }, 'd', 's');
    assert.deepStrictEqual(Object.keys(out!.zen), ['good']);
    assert.strictEqual(problems.length, 2);
  });

  it('takes the route from the model\'s npm package, else the provider\'s; limits, images, prices, free, status', () => {
    const { data: out } = fromModelsDev({
      opencode: provider({
        g: { provider: { npm: '@ai-sdk/openai' }, limit: { context: 400_000, output: 128_000 }, modalities: { input: ['text', 'image'] }, cost: { input: 1.25, output: 10, cache_read: 0.125 }, status: 'beta' },
        c: { limit: { context: 100, output: 500 }, cost: { input: 0, output: 0 } },
        'x-free': { provider: { npm: '@ai-sdk/anthropic' }, status: 'deprecated' },
      }),
      'opencode-go': provider({ y: { provider: { npm: '@ai-sdk/google' } } }),
    }, 'd', 's');
    assert.deepStrictEqual(out!.zen.g, { route: 'responses', contextWindow: 400_000, maxOutputTokens: 128_000, imageInput: true, prices: { input: 1.25, output: 10, cacheRead: 0.125 }, status: 'preview' });
    assert.deepStrictEqual(out!.zen.c, { route: 'chat', contextWindow: 100, prices: { input: 0, output: 0 }, free: true }, 'an output above the window is dropped');
    assert.deepStrictEqual(out!.zen['x-free'], { route: 'messages', free: true, status: 'deprecated' });
    assert.strictEqual(out!.go.y.route, 'gemini');
  });

  it('maps reasoning options to the route\'s control, never a level the control cannot carry', () => {
    assert.deepStrictEqual(reasoningControlOf('responses', [{ type: 'effort', values: ['none', 'low', 'max'] }]), { control: 'responses-effort', levels: ['none', 'low'] });
    assert.deepStrictEqual(reasoningControlOf('chat', [{ type: 'toggle' }, { type: 'effort', values: ['high', 'max'] }]), { control: 'reasoning_effort', levels: ['off', 'high', 'max'] });
    assert.deepStrictEqual(reasoningControlOf('chat', [{ type: 'toggle' }]), { control: 'thinking-toggle', levels: ['off', 'on'] });
    assert.deepStrictEqual(reasoningControlOf('messages', [{ type: 'toggle' }, { type: 'budget_tokens', max: 81_920 }]), { control: 'anthropic-budget', levels: ['off', 'low', 'medium', 'high'], maxBudget: 81_920 });
    assert.deepStrictEqual(reasoningControlOf('messages', [{ type: 'effort', values: ['low', 'xhigh'] }]), { control: 'anthropic-adaptive', levels: ['low', 'xhigh'] });
    assert.deepStrictEqual(reasoningControlOf('gemini', [{ type: 'effort', values: ['low', 'high'] }]), { control: 'gemini-level', levels: ['low', 'high'] });
    fc.assert(
      fc.property(fc.constantFrom<RouteId>(...ROUTE_IDS), fc.array(fc.record({ type: fc.constantFrom('effort', 'toggle', 'budget_tokens', 'other'), values: fc.array(fc.string()), max: fc.integer() })), (route, options) => {
        const reasoningControl = reasoningControlOf(route, options);
        const control = CONTROLS[reasoningControl.control];
        assert.ok(control.routes.includes(route));
        for (const level of reasoningControl.levels) assert.ok(control.levels.includes(level));
      }),
    );
  });
});

describe('model table: one lookup, one precedence', () => {
  const live = data({ 'm-1': { route: 'messages', contextWindow: 300_000, maxOutputTokens: 30_000, imageInput: true } });
  const snapshot = data({ 'm-1': { route: 'chat', contextWindow: 200_000, maxOutputTokens: 20_000, imageInput: false }, 'gpt-x': { route: 'responses', contextWindow: 50_000 } });

  it('setting → learned → live → snapshot → family → endpoint fields → fallback, field by field (property)', () => {
    fc.assert(
      fc.property(
        fc.record({ live: fc.boolean(), snapshot: fc.boolean(), settingApi: fc.boolean(), settingWindow: fc.boolean(), learnedRoute: fc.boolean(), learnedWindow: fc.boolean(), listed: fc.boolean(), fallback: fc.boolean() }),
        (has) => {
          const table = new ModelTable(has.snapshot ? snapshot : data({}));
          table.setLive(has.live ? live : undefined);
          const query: ModelQuery = {
            modelId: 'm-1',
            catalog: 'zen',
            override: { ...(has.settingApi ? { api: 'gemini' as const } : {}), ...(has.settingWindow ? { contextWindow: 7_777 } : {}) },
            learnedRoute: has.learnedRoute ? 'responses' : undefined,
            learned: has.learnedWindow ? { window: 99_000 } : undefined,
            listed: has.listed ? { contextWindow: 111_000 } : undefined,
            fallbackWindow: has.fallback ? 128_000 : undefined,
          };
          const facts = table.lookup(query);
          const route = has.settingApi ? 'gemini' : has.learnedRoute ? 'responses' : has.live ? 'messages' : has.snapshot ? 'chat' : 'chat';
          assert.strictEqual(facts.route, route);
          const published = has.live ? 300_000 : has.snapshot ? 200_000 : has.listed ? 111_000 : undefined;
          const window = has.settingWindow ? 7_777 : has.learnedWindow ? 99_000 : published ?? (has.fallback ? 128_000 : undefined);
          assert.strictEqual(facts.contextWindow, window);
          assert.strictEqual(facts.imageInput, has.live);
        },
      ),
    );
  });

  it('a learned window larger than the published one is ignored (a stale record or a misread error)', () => {
    const table = new ModelTable(snapshot);
    assert.strictEqual(table.lookup({ modelId: 'm-1', catalog: 'zen', learned: { window: 900_000 } }).contextWindow, 200_000);
  });

  it('on a custom endpoint its own /models fields come before the data, and the first route is chat', () => {
    const table = new ModelTable(snapshot);
    const facts = table.lookup({ modelId: 'm-1', listed: { contextWindow: 111_000 } });
    assert.deepStrictEqual([facts.contextWindow, facts.windowSource, facts.route], [111_000, 'endpoint', 'chat']);
    assert.strictEqual(table.lookup({ modelId: 'm-1' }).contextWindow, 200_000, 'a proxy in front of Zen still finds its windows');
  });

  it('one matching rule: case and a provider prefix do not matter; a longer id is another model', () => {
    assert.strictEqual(MODEL_TABLE.lookup({ modelId: 'OpenCode/GPT-5.5', catalog: 'zen' }).route, 'responses');
    assert.strictEqual(MODEL_TABLE.lookup({ modelId: 'gpt-5.5-turbo-x', catalog: 'zen' }).routeSource, 'family');
    assert.strictEqual(MODEL_TABLE.lookup({ modelId: 'toString', catalog: 'zen' }).cardSource, undefined, 'no prototype keys');
  });

  it('newer live data wins over the snapshot; clearing it goes back', () => {
    const table = new ModelTable(snapshot);
    table.setLive(live);
    assert.strictEqual(table.lookup({ modelId: 'm-1', catalog: 'zen' }).dataDate, '2027-01-01');
    assert.strictEqual(table.lookup({ modelId: 'gpt-x', catalog: 'zen' }).cardSource, 'snapshot', 'ids the live data lacks keep the snapshot');
    table.setLive(undefined);
    assert.strictEqual(table.lookup({ modelId: 'm-1', catalog: 'zen' }).route, 'chat');
  });

  it('maxOutputTokens never exceeds the window', () => {
    const table = new ModelTable(data({ m: { route: 'chat', contextWindow: 1_000, maxOutputTokens: 900 } }));
    assert.strictEqual(table.lookup({ modelId: 'm', catalog: 'zen', override: { contextWindow: 500 } }).maxOutputTokens, 500);
  });
});

describe('model table: family rule, free tier, prices', () => {
  it('the family rule routes ids no data lists, per endpoint (MiniMax is chat on Zen, Messages on Go)', () => {
    assert.strictEqual(familyOf('gemini-9-ultra', 'zen')?.route, 'gemini');
    assert.strictEqual(familyOf('claude-sonnet-9', 'go')?.route, 'messages');
    assert.strictEqual(familyOf('minimax-m9', 'zen'), undefined);
    assert.strictEqual(familyOf('minimax-m9', 'go')?.route, 'messages');
    assert.strictEqual(familyOf('unlisted-thing', 'zen'), undefined);
    assert.strictEqual(MODEL_TABLE.lookup({ modelId: 'unlisted-thing', catalog: 'zen' }).route, 'chat');
  });

  it('free-tier models are marked and not offered unless the setting shows them', () => {
    for (const id of Object.keys(SNAPSHOT.zen).filter((id) => id.endsWith('-free'))) assert.ok(MODEL_TABLE.lookup({ modelId: id, catalog: 'zen' }).free, id);
    assert.ok(MODEL_TABLE.lookup({ modelId: 'big-pickle', catalog: 'zen' }).free, 'priced at zero');
    assert.ok(isFreeTierId('brand-new-free') && MODEL_TABLE.lookup({ modelId: 'brand-new-free', catalog: 'zen' }).free);
    const paid = MODEL_TABLE.lookup({ modelId: 'gpt-5.5', catalog: 'zen' });
    const free = MODEL_TABLE.lookup({ modelId: 'big-pickle', catalog: 'zen' });
    assert.deepStrictEqual([offered(paid, {}), offered(free, {}), offered(free, { showFreeModels: true })], [true, false, true]);
  });

  it('pricesFor: USD per 1M tokens from the data, undefined when none is published', () => {
    assert.deepStrictEqual(pricesFor('claude-opus-4-7', 'zen'), { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 });
    assert.strictEqual(pricesFor('unlisted-thing', 'zen'), undefined);
    const copy = pricesFor('claude-opus-4-7', 'zen')!;
    copy.input = 0;
    assert.strictEqual(pricesFor('claude-opus-4-7', 'zen')?.input, 5, 'a copy: callers cannot change the table');
  });

  it('resolveEntry applies the opencode.models fields set, and nothing else (property)', () => {
    const listed = { id: 'my-own', name: 'my-own', contextWindow: 100_000, maxOutputTokens: 8_000, toolCalling: true, imageInput: true, limitSource: 'endpoint' as const };
    fc.assert(
      fc.property(fc.record({ contextWindow: fc.integer({ min: 8_000, max: 10_000_000 }), maxOutputTokens: fc.integer({ min: 1, max: 8_000 }), imageInput: fc.boolean() }, { requiredKeys: [] }), (override) => {
        const { entry } = resolveEntry(listed, { models: { 'my-own': override } });
        assert.strictEqual(entry.contextWindow, override.contextWindow ?? listed.contextWindow);
        assert.strictEqual(entry.maxOutputTokens, override.maxOutputTokens ?? listed.maxOutputTokens);
        assert.strictEqual(entry.imageInput, override.imageInput ?? listed.imageInput);
        assert.strictEqual(entry.limitSource, override.contextWindow !== undefined ? 'setting' : 'endpoint');
      }),
    );
  });
});
