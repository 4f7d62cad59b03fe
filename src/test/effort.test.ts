/** Thinking effort → request fields on every route, and the picker's configurationSchema. */
import * as assert from 'assert';
import fc from 'fast-check';
import { effortFields, mergeEffort } from '../core/routes/effort';
import { allCards, cardOf } from './support/modelCards';
import { effortConfigurationSchema, EFFORT_PROPERTY } from '../core/routes/effortPicker';
import { buildGeminiBody } from '../core/routes/gemini/geminiBody';
import { buildResponsesBody } from '../core/routes/responses/responsesBody';
import { buildMessagesBody } from '../core/routes/messages/messagesBody';
import type { BodyInput } from '../core/routes/route';
import { runs } from './support/propertyRuns';
import { CONTROLS, type EffortSubject } from '../core/routes/select/reasoningControl';

const entry = cardOf;
const input = (modelId: string, extra: Partial<BodyInput> = {}): BodyInput => ({ modelId, messages: [{ role: 'user', content: 'hi' }], tools: [], sessionId: 's', ...extra });
const ALL = allCards();

describe('thinking effort per route and family', () => {
  it('"default" sends nothing, on every model; a level the model does not offer is refused', () => {
    for (const model of ALL) assert.deepStrictEqual(effortFields(model, 'default'), {});
    assert.strictEqual(effortFields(entry('zen', 'gpt-5.5-pro'), 'low'), undefined);
    assert.strictEqual(effortFields(entry('zen', 'big-pickle'), 'high'), undefined);
  });

  it('chat: reasoning_effort, or the family\'s own thinking field (DeepSeek off, GLM and Kimi toggles)', () => {
    assert.deepStrictEqual(effortFields(entry('zen', 'deepseek-v4-pro'), 'max'), { reasoning_effort: 'max' });
    assert.deepStrictEqual(effortFields(entry('zen', 'deepseek-v4-pro'), 'off'), { thinking: { type: 'disabled' } });
    assert.deepStrictEqual(effortFields(entry('zen', 'glm-5.2'), 'high'), { reasoning_effort: 'high' });
    assert.deepStrictEqual(effortFields(entry('zen', 'glm-5.1'), 'on'), { thinking: { type: 'enabled' } });
    assert.deepStrictEqual(effortFields(entry('zen', 'kimi-k2.5'), 'off'), { thinking: { type: 'disabled' } });
  });

  it('responses: reasoning.effort, merged beside reasoning.summary in the real body', () => {
    const model = entry('zen', 'gpt-5.5');
    const body = mergeEffort(buildResponsesBody(input(model.id, { reasons: true })), effortFields(model, 'xhigh')!);
    assert.deepStrictEqual(body.reasoning, { summary: 'auto', effort: 'xhigh' });
    assert.strictEqual(Object.keys(body).pop(), 'input', 'merging keeps the history last');
  });

  it('messages: enabled + budget for older Claude and Qwen (below max_tokens, within the model\'s cap); adaptive + output_config.effort for the newer ones', () => {
    const sonnet45 = entry('zen', 'claude-sonnet-4-5');
    assert.deepStrictEqual(effortFields(sonnet45, 'high'), { thinking: { type: 'enabled', budget_tokens: 32_768 } });
    assert.deepStrictEqual(effortFields(sonnet45, 'high', { maxTokens: 8_000 }), { thinking: { type: 'enabled', budget_tokens: 7_999 } });
    assert.strictEqual(effortFields(sonnet45, 'low', { maxTokens: 1_000 }), undefined, 'no budget ≥ 1,024 fits under max_tokens');
    assert.deepStrictEqual(effortFields(sonnet45, 'off'), { thinking: { type: 'disabled' } });
    assert.deepStrictEqual(effortFields(entry('zen', 'claude-opus-4-7'), 'max'), { thinking: { type: 'adaptive' }, output_config: { effort: 'max' } });
    assert.strictEqual(effortFields(entry('zen', 'claude-opus-4-7'), 'off'), undefined, 'adaptive-only models refuse disabled');
    assert.deepStrictEqual(effortFields(entry('go', 'minimax-m3'), 'on'), { thinking: { type: 'adaptive' } });
    const body = mergeEffort(buildMessagesBody(input('claude-sonnet-4-5', { maxOutputTokens: 64_000 })), effortFields(sonnet45, 'medium', { maxTokens: 64_000 })!);
    assert.ok((body.thinking as { budget_tokens: number }).budget_tokens < (body.max_tokens as number));
  });

  it('gemini: thinkingLevel or thinkingBudget, never both, merged into generationConfig.thinkingConfig', () => {
    const flash = entry('zen', 'gemini-3-flash');
    const body = mergeEffort(buildGeminiBody(input(flash.id, { reasons: true, maxOutputTokens: 65_536 })), effortFields(flash, 'minimal')!);
    assert.deepStrictEqual(body.generationConfig, { maxOutputTokens: 65_536, thinkingConfig: { includeThoughts: true, thinkingLevel: 'MINIMAL' } });
    const budgetModel: EffortSubject = { id: 'gemini-2.5-pro', route: 'gemini', reasoningControl: { control: 'gemini-budget', levels: ['off', 'high'] } };
    assert.deepStrictEqual(effortFields(budgetModel, 'off'), { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } });
    assert.deepStrictEqual(effortFields(budgetModel, 'high'), { generationConfig: { thinkingConfig: { thinkingBudget: 24_576 } } });
  });

  it('property: every offered level of every catalogue model gives fields of its own route only, and Gemini never both', () => {
    const ROUTE_KEYS: Record<string, string[]> = { chat: ['reasoning_effort', 'thinking'], responses: ['reasoning'], messages: ['thinking', 'output_config'], gemini: ['generationConfig'] };
    const pairs = ALL.flatMap((model) => (model.reasoningControl?.levels ?? []).map((level) => ({ model, level })));
    assert.ok(pairs.length > 100);
    fc.assert(fc.property(fc.constantFrom(...pairs), ({ model, level }) => {
      const patch = effortFields(model, level);
      assert.ok(patch, `${model.id} ${level}`);
      for (const key of Object.keys(patch)) assert.ok(ROUTE_KEYS[model.route].includes(key), `${model.id}: ${key}`);
      const config = JSON.stringify(patch);
      assert.ok(!(config.includes('thinkingLevel') && config.includes('thinkingBudget')));
      assert.ok(CONTROLS[model.reasoningControl!.control].levels.includes(level));
    }), { numRuns: runs(300) });
  });

  it('picker: an enum with labels, "default" first, only for models with levels', () => {
    const schema = effortConfigurationSchema(entry('zen', 'claude-opus-4-7')) as { properties: Record<string, { enum: string[]; enumItemLabels: string[]; default: string }> };
    const property = schema.properties[EFFORT_PROPERTY];
    assert.deepStrictEqual(property.enum, ['default', 'low', 'medium', 'high', 'xhigh', 'max']);
    assert.deepStrictEqual(property.enumItemLabels, ['Automatic', 'Low', 'Medium', 'High', 'Extra high', 'Max']);
    assert.strictEqual(property.default, 'default');
    assert.strictEqual(effortConfigurationSchema(entry('zen', 'big-pickle')), undefined);
    assert.strictEqual(effortConfigurationSchema(entry('go', 'minimax-m2.7')), undefined);
  });
});
