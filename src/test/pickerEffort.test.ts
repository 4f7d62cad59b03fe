/** The picker's thinking option: every catalogue model with levels gets a configurationSchema; the value comes back. */
import * as assert from 'assert';
import { resolveSettings } from '../core/config/settings';
import { allCards } from './support/modelCards';
import type { ModelEntry } from '../core/types';
import fc from 'fast-check';
import { describeModel, reportedSizes, type PickerModelInformation } from '../vscode/modelInfo';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';
import { pickedEffort } from '../vscode/chatTypes';

const settings = resolveSettings((key) => (key === 'baseUrl' ? 'https://opencode.ai/zen/v1' : undefined), () => undefined);
const entry = (id: string): ModelEntry => ({ id, name: id, toolCalling: true, imageInput: false, limitSource: 'bundled', contextWindow: 100_000, maxOutputTokens: 8_000 });

describe('thinking effort in the model picker', () => {
  it('offers "default" plus exactly the catalogue levels, with labels, for every Zen model that has levels', () => {
    for (const model of allCards().filter((card) => card.catalog === 'zen')) {
      const info = describeModel(entry(model.id), { contextWindow: 100_000 }, settings);
      const levels = model.reasoningControl?.levels ?? [];
      if (levels.length === 0) {
        assert.strictEqual(info.configurationSchema, undefined, model.id);
        continue;
      }
      const property = (info.configurationSchema as { properties: Record<string, { enum: string[]; enumItemLabels: string[]; default: string }> }).properties.reasoningEffort;
      assert.deepStrictEqual(property.enum, ['default', ...levels], model.id);
      assert.strictEqual(property.enumItemLabels.length, property.enum.length);
      assert.strictEqual(property.default, 'default');
    }
    assert.strictEqual(describeModel(entry('my-own-model'), {}, settings).configurationSchema, undefined);
  });

  it('input + output never exceed the window, in both reporting modes (a 400K model is not shown as "508K")', () => {
    const gpt = describeModel(entry('gpt-5.4-mini'), { contextWindow: 400_000, maxOutputTokens: 128_000 }, settings);
    assert.ok(gpt.maxInputTokens + gpt.maxOutputTokens <= 400_000, `${gpt.maxInputTokens} + ${gpt.maxOutputTokens}`);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000_000 }), fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }), fc.constantFrom<'budget' | 'window'>('budget', 'window'), fc.nat({ max: 200_000 }), (window, maxOut, mode, reserved) => {
        const s = { ...settings, reportedInputLimit: mode, reservedOutputTokens: reserved };
        const sizes = reportedSizes({ contextWindow: window, maxOutputTokens: maxOut }, s);
        assert.ok(sizes.maxInputTokens >= 1 && sizes.maxOutputTokens >= 1, JSON.stringify(sizes));
        assert.ok(sizes.maxInputTokens + sizes.maxOutputTokens <= window, JSON.stringify({ window, maxOut, mode, reserved, sizes }));
      }),
    );
  });

  it('tells what a model is: endpoint, window and price short in the detail; prices per 1M, reasoning in the tooltip; free', () => {
    const zen = { ...settings, catalog: 'zen' as const };
    const opus = describeModel(entry('claude-opus-4-7'), { contextWindow: 1_000_000 }, zen);
    assert.strictEqual(opus.detail, 'OpenCode Zen · 1M · $5/$25');
    assert.match(opus.tooltip as string, /Price per 1M tokens: input \$5, output \$25/);
    assert.match(opus.tooltip as string, /Reasons; thinking effort/);
    // One sentence per line: the picker runs the lines together into one paragraph.
    assert.ok((opus.tooltip as string).split('\n').every((line) => /[.!?]$/.test(line)), opus.tooltip as string);
    assert.match(opus.tooltip as string, /cache read \$0\.5, cache write \$6\.25/);
    const pickle = describeModel(entry('big-pickle'), { contextWindow: 200_000 }, zen);
    assert.match(pickle.name, /\(free\)$/);
    assert.match(pickle.detail ?? '', /free/);
  });

  it('reads the value from modelOptions (per request), then modelConfiguration (the picker), then configuration', () => {
    const base = { tools: [], toolMode: 1 } as never as Parameters<typeof pickedEffort>[0];
    assert.strictEqual(pickedEffort({ ...base, modelConfiguration: { reasoningEffort: 'default' }, modelOptions: { reasoningEffort: 'low' } } as never), 'low');
    assert.strictEqual(pickedEffort({ ...base, modelConfiguration: { reasoningEffort: 'high' } } as never), 'high');
    assert.strictEqual(pickedEffort({ ...base, configuration: { reasoningEffort: 'medium' } } as never), 'medium');
    assert.strictEqual(pickedEffort({ ...base, modelOptions: { reasoningEffort: 'low' } }), 'low');
    assert.strictEqual(pickedEffort(base), undefined);
  });
});

describe('thinking effort through the provider (real HTTP, fake server)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, activateAgainst);

  it('lists gpt-5.4-mini with its levels, logs the offer once, and sends the picked level on its route', async () => {
    const token = new double.CancellationTokenSource().token as never;
    const models = (await ext().provider.provideLanguageModelChatInformation({ silent: true }, token)) as PickerModelInformation[];
    await ext().provider.provideLanguageModelChatInformation({ silent: true }, token);
    const mini = models.find((m) => m.id === 'gpt-5.4-mini');
    assert.ok(mini?.configurationSchema, 'a reasoning model offers effort levels');
    assert.strictEqual(models.find((m) => m.id === 'fake-large')?.configurationSchema, undefined);
    const offers = ext().log.lines.filter((l) => l.message.startsWith('[picker]')).map((l) => l.message);
    assert.deepStrictEqual(offers, ['[picker] thinking effort: gpt-5.4-mini(default/none/low/medium/high/xhigh)']);
    await ask(ext(), 'gpt-5.4-mini', [user('think hard')], { modelConfiguration: { reasoningEffort: 'xhigh' } } as never);
    const responses = server().requests.filter((r) => r.path === '/v1/responses');
    assert.deepStrictEqual((responses.at(-1)?.body as { reasoning?: { effort?: string } }).reasoning?.effort, 'xhigh');
  });
});
