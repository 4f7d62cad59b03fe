/**
 * Thinking effort end to end over real HTTP (fake OpenCode server, catalogue model ids): the picker's value
 * (else the setting) folded into each route's body, "default" sending nothing, a refused field dropped for that
 * model and retried once with a log line, temperature per the catalogue's quirks, reasoning_content always (until refused).
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { allCards } from './support/modelCards';
import { effortFields, mergeEffort } from '../core/routes/effort';
import { effortChoice, sendBody } from '../core/request/sendBody';
import type { ChatMessage } from '../core/types';
import type { FakeModel } from '../fakeServer/types';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';

const LIMITS = { contextWindow: 200_000, maxOutputTokens: 64_000 };
const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };
const text = (t: string): ChatMessage => ({ role: 'user', parts: [{ kind: 'text', text: t }] });
const model = (id: string, api: FakeModel['api']): FakeModel => ({ id, contextWindow: 200_000, maxOutputTokens: 64_000, toolCalling: true, imageInput: true, api, reasons: api !== 'chat' });
const ROUTED = { 'gpt-5.4': 'responses', 'claude-sonnet-4-5': 'messages', 'claude-opus-4-7': 'messages', 'gemini-3.1-pro': 'gemini', 'glm-5.2': 'chat' } as const;
const SETTINGS = { models: Object.fromEntries(Object.entries(ROUTED).map(([id, api]) => [id, { api }])) };

describe('thinking effort on the wire (real HTTP, fake OpenCode server)', () => {
  const server = useFakeServer({ models: Object.entries(ROUTED).map(([id, api]) => model(id, api)) });

  async function send(modelId: string, effort: unknown, settings: Record<string, unknown> = SETTINGS, modelOptions?: Record<string, unknown>) {
    const { engine, log } = engineFor(server().url, settings, new MemoryStore(), fast);
    await engine.run({ purpose: 'conversation', modelId, messages: [text('think about it')], tools: [], effort, modelOptions }, LIMITS, () => undefined, new AbortController().signal);
    return { body: server().requests.at(-1)!.body as Record<string, unknown>, log };
  }

  it('each route carries the picked level in its own field, and the server accepts it', async () => {
    assert.deepStrictEqual((await send('gpt-5.4', 'high')).body.reasoning, { summary: 'auto', effort: 'high' }, 'known to reason: its summary too');
    const budget = await send('claude-sonnet-4-5', 'medium', SETTINGS, { temperature: 0.3 });
    assert.deepStrictEqual(budget.body.thinking, { type: 'enabled', budget_tokens: 16_384 });
    assert.strictEqual(budget.body.temperature, undefined, 'no temperature with a thinking budget');
    const adaptive = await send('claude-opus-4-7', 'xhigh');
    assert.deepStrictEqual([adaptive.body.thinking, adaptive.body.output_config], [{ type: 'adaptive' }, { effort: 'xhigh' }]);
    const gemini = await send('gemini-3.1-pro', 'low');
    assert.deepStrictEqual((gemini.body.generationConfig as { thinkingConfig: unknown }).thinkingConfig, { includeThoughts: true, thinkingLevel: 'LOW' });
    assert.strictEqual((await send('glm-5.2', 'max')).body.reasoning_effort, 'max');
  });

  it('"default" and no pick send nothing; the setting is the fallback; the pick wins over it', async () => {
    const plain = await send('gpt-5.4', 'default');
    assert.strictEqual((plain.body.reasoning as { effort?: unknown } | undefined)?.effort, undefined);
    const withSetting = { models: { ...SETTINGS.models, 'gpt-5.4': { api: 'responses', reasoningEffort: 'low' } } };
    assert.deepStrictEqual(((await send('gpt-5.4', undefined, withSetting)).body.reasoning as { effort: string }).effort, 'low');
    assert.deepStrictEqual(((await send('gpt-5.4', 'xhigh', withSetting)).body.reasoning as { effort: string }).effort, 'xhigh');
    assert.deepStrictEqual(((await send('gpt-5.4', 'default', withSetting)).body.reasoning as { effort: string }).effort, 'low', 'the picker\'s untouched default leaves the setting in force');
    const defaultSetting = { models: { ...SETTINGS.models, 'gpt-5.4': { api: 'responses', reasoningEffort: 'default' } } };
    assert.strictEqual(((await send('gpt-5.4', 'default', defaultSetting)).body.reasoning as { effort?: string } | undefined)?.effort, undefined);
    assert.deepStrictEqual(((await send('gpt-5.4', 'turbo', withSetting)).body.reasoning as { effort: string }).effort, 'low', 'an unknown pick falls back');
  });

  it('a level the model refuses: dropped for that model, retried once, logged, remembered', async () => {
    const { engine, log } = engineFor(server().url, SETTINGS, new MemoryStore(), fast);
    server().enqueueFault({ name: 'unsupported-param-400', param: 'reasoning_effort' });
    const run = () => engine.run({ purpose: 'conversation', modelId: 'glm-5.2', messages: [text('hi')], tools: [], effort: 'high' }, LIMITS, () => undefined, new AbortController().signal);
    await run();
    const [refused, retried] = server().requests.map((r) => r.body as Record<string, unknown>);
    assert.strictEqual(refused.reasoning_effort, 'high');
    assert.strictEqual(retried.reasoning_effort, undefined);
    assert.strictEqual(server().requests.length, 2, 'retried once');
    assert.deepStrictEqual(log.lines.filter((l) => l.level === 'warn').map((l) => l.message), ['[request] glm-5.2 does not accept "reasoning_effort"; sending without it from now on.']);
    await run();
    assert.strictEqual((server().requests[2].body as Record<string, unknown>).reasoning_effort, undefined, 'remembered for the model');
  });
});

describe('sendBody (pure)', () => {
  const entries = allCards();

  it('folds exactly effortFields into the body for every catalogue level; "default" changes nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...entries), fc.nat(), (entry, pick) => {
        const base = { model: entry.id, max_tokens: 64_000, generationConfig: { maxOutputTokens: 100 } };
        const levels = entry.reasoningControl?.levels ?? [];
        const level = levels.length > 0 ? levels[pick % levels.length] : 'default';
        const out = sendBody(base, { modelId: entry.id, route: entry.route, catalog: entry.catalog, picked: level, refused: new Set() });
        const patch = effortFields(entry, level, { maxTokens: 64_000 }) ?? {};
        const expected = mergeEffort(base, patch);
        for (const key of Object.keys(patch)) assert.deepStrictEqual(out[key], expected[key], `${entry.id} ${level} ${key}`);
        if (level === 'default') assert.deepStrictEqual(out, base);
      }),
    );
  });

  it('strips temperature for noTemperature models; keeps reasoning_content for every chat model, listed or not, until refused', () => {
    const history = [{ role: 'assistant', content: 'x', reasoning_content: 'why' }];
    for (const entry of entries.filter((e) => e.route === 'chat')) {
      const out = sendBody({ temperature: 0.2, messages: history }, { modelId: entry.id, route: 'chat', catalog: entry.catalog, refused: new Set() });
      assert.strictEqual('temperature' in out, !entry.noTemperature, entry.id);
      assert.deepStrictEqual(out.messages, history, `${entry.id}: whatever the data says of interleaved thinking`);
      const refused = sendBody({ messages: history }, { modelId: entry.id, route: 'chat', catalog: entry.catalog, refused: new Set(['reasoning_content']) });
      assert.deepStrictEqual(refused.messages, [{ role: 'assistant', content: 'x' }], entry.id);
    }
    const unlisted = sendBody({ temperature: 0.2, messages: history }, { modelId: 'my-model', route: 'chat', refused: new Set() });
    assert.deepStrictEqual(unlisted, { temperature: 0.2, messages: history }, 'unlisted models are sent as before');
  });

  it('reads only known values: anything else is the setting, else default', () => {
    assert.strictEqual(effortChoice('high', 'low'), 'high');
    assert.strictEqual(effortChoice(undefined, 'low'), 'low');
    assert.strictEqual(effortChoice(42, undefined), 'default');
    assert.strictEqual(effortChoice('default', 'low'), 'low');
    assert.strictEqual(effortChoice('default', undefined), 'default');
  });
});
