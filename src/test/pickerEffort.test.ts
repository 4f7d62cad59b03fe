/** The picker's thinking option: every catalogue model with levels gets a configurationSchema; the value comes back. */
import * as assert from 'assert';
import { resolveSettings } from '../core/config/settings';
import { CATALOG } from '../core/models/catalog/catalogData';
import type { ModelEntry } from '../core/types';
import { describeModel } from '../vscode/modelInfo';
import { pickedEffort } from '../vscode/pickedEffort';

const settings = resolveSettings((key) => (key === 'baseUrl' ? 'https://opencode.ai/zen/v1' : undefined), () => undefined);
const entry = (id: string): ModelEntry => ({ id, name: id, toolCalling: true, imageInput: false, limitSource: 'bundled', contextWindow: 100_000, maxOutputTokens: 8_000 });

describe('thinking effort in the model picker', () => {
  it('offers "default" plus exactly the catalogue levels, with labels, for every Zen model that has levels', () => {
    for (const model of CATALOG.zen) {
      const info = describeModel(entry(model.id), { contextWindow: 100_000 }, settings);
      const levels = model.reasoning?.levels ?? [];
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

  it('reads the picked value from modelConfiguration, then configuration, then modelOptions', () => {
    const base = { tools: [], toolMode: 1 } as never as Parameters<typeof pickedEffort>[0];
    assert.strictEqual(pickedEffort({ ...base, modelConfiguration: { reasoningEffort: 'high' }, modelOptions: { reasoningEffort: 'low' } } as never), 'high');
    assert.strictEqual(pickedEffort({ ...base, configuration: { reasoningEffort: 'medium' } } as never), 'medium');
    assert.strictEqual(pickedEffort({ ...base, modelOptions: { reasoningEffort: 'low' } }), 'low');
    assert.strictEqual(pickedEffort(base), undefined);
  });
});
