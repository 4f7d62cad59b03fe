/** The bundled catalogue: every entry consistent (route known, output ≤ window, levels valid for the route), and the checks themselves can fail. */
import * as assert from 'assert';
import { CATALOG } from '../core/models/catalog/catalogData';
import { catalogEntry, catalogLimits, catalogRoute, catalogueProblems, entryProblems } from '../core/models/catalog/catalog';
import type { CatalogEntry } from '../core/models/catalog/catalogTypes';

describe('model catalogue (data)', () => {
  it('every entry is consistent', () => {
    assert.deepStrictEqual(catalogueProblems(), []);
  });

  it('carries today\'s lineup on both catalogues, with the routes OpenCode serves them on', () => {
    assert.ok(CATALOG.zen.length >= 50 && CATALOG.go.length >= 20);
    assert.strictEqual(catalogEntry('zen', 'gemini-3.1-pro')?.route, 'gemini');
    assert.strictEqual(catalogEntry('zen', 'opencode/claude-opus-4-7')?.route, 'messages');
    assert.strictEqual(catalogEntry('zen', 'minimax-m3')?.route, 'chat');
    assert.strictEqual(catalogEntry('go', 'minimax-m3')?.route, 'messages');
    assert.strictEqual(catalogEntry('go', 'deepseek-v4-flash')?.gatewayMaxOutput, 131_072);
    assert.strictEqual(catalogEntry('go', 'kimi-k3')?.noTemperature, true);
    assert.strictEqual(catalogEntry('zen', 'glm-5.2')?.echoReasoningContent, true);
    assert.strictEqual(catalogEntry('zen', 'no-such-model'), undefined);
  });

  it('gives the route table and the limits table what they need (gateway caps win over the model card)', () => {
    assert.deepStrictEqual(catalogRoute('zen', 'gemini-3-flash'), { route: 'gemini', reasoning: true });
    assert.deepStrictEqual(catalogRoute('go', 'muse-spark-1.2-contributor'), { route: 'responses', reasoning: false });
    assert.deepStrictEqual(catalogLimits('go', 'deepseek-v4-flash'), { contextWindow: 1_000_000, maxOutputTokens: 131_072, imageInput: false });
    assert.deepStrictEqual(catalogLimits('zen', 'deepseek-v4-flash'), { contextWindow: 1_000_000, maxOutputTokens: 384_000, imageInput: false });
    assert.deepStrictEqual(catalogLimits('go', 'hy3'), { contextWindow: undefined, maxOutputTokens: undefined, imageInput: undefined });
    assert.strictEqual(catalogLimits('go', 'unknown'), undefined);
  });

  it('the consistency rules catch each kind of mistake', () => {
    const good: CatalogEntry = { id: 'x-1', route: 'messages', contextWindow: 1000, maxOutputTokens: 100, reasoning: { control: 'anthropic-budget', levels: ['off', 'low'] }, source: 'MD 2026-07-02' };
    assert.deepStrictEqual(entryProblems(good), []);
    const broken: [Record<string, unknown>, RegExp][] = [
      [{ route: 'vertex' }, /not a known route/],
      [{ maxOutputTokens: 2000 }, /exceeds the window/],
      [{ contextWindow: -1 }, /positive integers/],
      [{ reasoning: { control: 'anthropic-budget', levels: ['minimal'] } }, /not valid for anthropic-budget/],
      [{ reasoning: { control: 'responses-effort', levels: ['low'] } }, /does not exist on the messages route/],
      [{ reasoning: { control: 'anthropic-adaptive', levels: ['low', 'low'] } }, /listed twice/],
      [{ source: 'MD' }, /date/],
      [{ echoReasoningContent: true }, /only exists on the chat route/],
      [{ gatewayMaxOutput: 500 }, /below the model's max output/],
      [{ id: 'Big Model' }, /lowercase/],
    ];
    for (const [change, pattern] of broken) assert.match(entryProblems({ ...good, ...change } as unknown as CatalogEntry).join(' '), pattern, JSON.stringify(change));
  });
});
