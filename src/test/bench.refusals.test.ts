/** The bench's refusal regime on a small session: the rule before meets the limit in every conversation, the learned one once. */
import * as assert from 'assert';
import { REFUSAL_REGIME, runRefusalRegime } from '../bench/refusals/refusalRegime';
import { refusalsMarkdown } from '../bench/report/refusalsReport';

describe('bench: refusal regime (a true input limit below the data)', function () {
  this.timeout(120_000);

  it('before: refusals in every conversation; learned: at most one, in the first only; data: none; every request answered', () => {
    const session = { ...REFUSAL_REGIME.session, requests: 60, budgetTokens: 20_000, growthTokens: 700, systemTokens: 2_000, toolTokens: 4_000, toolCount: 8 };
    const result = runRefusalRegime({ ...REFUSAL_REGIME, window: 80_000, maxOutputTokens: 8_000, trueInputLimit: 34_000, session });
    const byId = new Map(result.variants.map((v) => [v.id, v.conversations]));
    const refusals = (id: 'before' | 'learned' | 'data') => byId.get(id)!.map((c) => c.refusals);
    assert.ok(refusals('before').every((n) => n >= 1), `before: ${refusals('before')}`);
    const [first, ...later] = refusals('learned');
    assert.ok(first <= 1 && later.every((n) => n === 0), `learned: ${refusals('learned')}`);
    assert.deepStrictEqual(refusals('data'), [0, 0, 0]);
    for (const v of result.variants) for (const c of v.conversations) assert.strictEqual(c.failed, 0, v.id);
    assert.match(refusalsMarkdown(result), /\| before: one grid move and one retry per refusal, nothing remembered \| \d+ \(/);
  });
});
