/**
 * Input limits (models.dev `limit.input`): random model data, with and without them, through the one conversion
 * (fromModelsDev), the model table and the budget: the budget, what VS Code is told, the trim and the overflow
 * sensor never go above min(input limit, window − reserved output).
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { resolveSettings } from '../core/config/settings';
import { fromModelsDev } from '../core/models/fromModelsDev';
import { ModelTable, limitsOf } from '../core/models/modelTable';
import { computeBudget, isOverflowing } from '../core/trim/budget';
import { SizeMemo } from '../core/trim/messageSize';
import type { WireMessage } from '../core/wire/wireTypes';
import { reportedSizes } from '../vscode/modelInfo';
import { runs } from './support/propertyRuns';
import { filler } from './support/trimHarness';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { planTrim } from '../core/trim/planTrim';
import { ConversationStates } from '../core/trim/trimState';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

const limit = fc.record(
  { context: fc.integer({ min: 2_000, max: 2_000_000 }), input: fc.integer({ min: 1, max: 2_000_000 }), output: fc.integer({ min: 1, max: 400_000 }) },
  { requiredKeys: ['context'] },
);

describe('input limits: the budget never exceeds min(input, window − output)', () => {
  it('input-budget: random model data with and without input limits, and random settings', () => {
    fc.assert(
      fc.property(limit, fc.integer({ min: 0, max: 60_000 }), fc.integer({ min: 0, max: 500_000 }), fc.constantFrom('budget', 'window'), (raw, reserved, override, reported) => {
        const converted = fromModelsDev({ opencode: { npm: '@ai-sdk/openai-compatible', models: { m: { id: 'm', limit: raw } } }, 'opencode-go': { models: {} } }, '2027-01-01', 'test');
        const card = converted.data?.zen.m;
        assert.ok(card, converted.problems.join());
        assert.strictEqual(card.inputLimit, raw.input !== undefined && raw.input < raw.context ? raw.input : undefined, 'an input limit is kept only below the window');
        const facts = new ModelTable(converted.data).lookup({ modelId: 'm', catalog: 'zen' });
        const settings = resolveSettings((key) => ({ reservedOutputTokens: reserved, maxInputTokens: override, reportedInputLimit: reported })[key], () => undefined);
        const budget = computeBudget(limitsOf(facts), settings);
        const ceiling = Math.min(card.inputLimit ?? Infinity, raw.context - budget.reserve);
        assert.ok(budget.tokens <= ceiling, `budget ${budget.tokens} > min(${card.inputLimit}, ${raw.context} − ${budget.reserve})`);
        if (override === 0 || override >= ceiling) assert.strictEqual(budget.tokens, ceiling, 'and uses all of it');
        const sizes = reportedSizes(limitsOf(facts), settings);
        assert.ok(sizes.maxInputTokens <= Math.min(card.inputLimit ?? Infinity, raw.context), `VS Code told ${sizes.maxInputTokens}`);
        assert.ok(sizes.maxInputTokens + sizes.maxOutputTokens <= raw.context);
        const usage = normalizeUsage({ prompt_tokens: ceiling, completion_tokens: 1 });
        assert.ok(usage && isOverflowing(usage, raw.context, budget.reserve, budget.inputLimit), 'the overflow sensor fires at the input limit');
      }),
      { numRuns: runs(500) },
    );
  });

  it('input-trim: a random session is cut under the input limit, not under the window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8_000, max: 40_000 }), fc.array(fc.integer({ min: 50, max: 2_500 }), { minLength: 5, maxLength: 60 }), (input, sizes) => {
        const messages: WireMessage[] = [{ role: 'system', content: 'You help.' }, ...sizes.map((n, i): WireMessage => ({ role: i % 2 ? 'assistant' : 'user', content: `${i} ${filler(n, i)}` }))];
        const settings = resolveSettings(() => undefined, () => undefined);
        const plan = planTrim(messages, [], { settings, limits: { contextWindow: input * 3, maxOutputTokens: 8_000, inputLimit: input }, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), log: quiet });
        assert.strictEqual(plan.budget.tokens, input);
        assert.ok(plan.trim.overCeiling || plan.trim.estTokens <= plan.geometry.ceiling, `~${plan.trim.estTokens} over ${plan.geometry.ceiling}`);
      }),
      { numRuns: runs(100) },
    );
  });
});
