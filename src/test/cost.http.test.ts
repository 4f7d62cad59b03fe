/**
 * What a request costs, over real HTTP against the fake server on all four routes: OpenCode's cost frame (after
 * the end marker on chat, Responses and Messages, as the last payload on Gemini) is read into the `[usage]` line
 * as `cost=$…`; without a frame the cost is computed from the model's catalogue prices, cache reads and writes
 * included, as `cost≈$…`; a model with no price and no frame gets no cost field.
 */
import * as assert from 'assert';
import type { RequestCost } from '../core/cost/requestCost';
import { formatUsd } from '../core/cost/requestCost';
import type { NormalizedUsage } from '../core/types';
import type { FakeModel } from '../fakeServer';
import { chat, engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import type { RouteId } from '../core/routeId';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };
const LIMITS = { contextWindow: 200_000, maxOutputTokens: 8_000 };

/** Catalogue ids (priced in catalogPrices.ts), one per route, as the fake serves them. */
const PRICED: Record<RouteId, { id: string; prices: [number, number, number, number] }> = {
  chat: { id: 'glm-5.1', prices: [1.4, 4.4, 0.26, 1.4] },
  responses: { id: 'gpt-5.4-mini', prices: [0.75, 4.5, 0.075, 0.75] },
  messages: { id: 'claude-sonnet-4-5', prices: [3, 15, 0.3, 3.75] },
  gemini: { id: 'gemini-3-flash', prices: [0.5, 3, 0.05, 0.5] },
};
const UNPRICED: Record<RouteId, string> = { chat: 'fake-large', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' };
const ROUTES: RouteId[] = ['chat', 'responses', 'messages', 'gemini'];

const MODELS: FakeModel[] = [
  { id: 'fake-large', contextWindow: 1_000_000, maxOutputTokens: 32_000, toolCalling: true },
  { id: 'fake-responses', contextWindow: 400_000, maxOutputTokens: 128_000, toolCalling: true, api: 'responses' },
  { id: 'fake-messages', contextWindow: 200_000, maxOutputTokens: 64_000, toolCalling: true, api: 'messages' },
  { id: 'fake-native-gemini', contextWindow: 1_000_000, maxOutputTokens: 65_536, toolCalling: true, api: 'gemini' },
  ...ROUTES.map((route): FakeModel => ({ id: PRICED[route].id, contextWindow: 400_000, maxOutputTokens: 64_000, toolCalling: true, api: route })),
];
const ROUTE_OF = Object.fromEntries([...ROUTES.map((r) => [UNPRICED[r], { api: r }]), ...ROUTES.map((r) => [PRICED[r].id, { api: r }])]);

async function conversation(url: string, modelId: string, turns: number, settings: Record<string, unknown> = {}) {
  const accounted: { usage: NormalizedUsage; cost?: RequestCost }[] = [];
  const { engine, log } = engineFor(url, { models: ROUTE_OF, ...settings }, new MemoryStore(), fast, { onAccounted: (_m, _p, usage, cost) => accounted.push({ usage, cost }) });
  const texts: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    texts.push(`question ${turn}: ${'tell me about prompt caches and how long they live. '.repeat(60)}`);
    const events: string[] = [];
    await engine.run({ purpose: 'conversation', modelId, messages: chat(...texts), tools: [] }, LIMITS, (e) => e.kind === 'text' && events.push(e.text), new AbortController().signal);
    texts.push(events.join(''));
  }
  const usageLines = log.lines.filter((l) => l.message.startsWith('[usage]')).map((l) => l.message);
  return { accounted, usageLines };
}

describe('request cost on every route (real HTTP, fake OpenCode server)', () => {
  describe('with OpenCode\'s cost frame', () => {
    const server = useFakeServer({ models: MODELS });
    for (const route of ROUTES) {
      it(`${route}: the frame's dollars are the [usage] line's cost=$…, and reach the request log`, async () => {
        const { accounted, usageLines } = await conversation(server().url, UNPRICED[route], 2);
        assert.strictEqual(usageLines.length, 2);
        accounted.forEach(({ usage, cost }, i) => {
          // The fake charges a dollar per million prompt tokens.
          const expected = Number((usage.contextTokens / 1e6).toFixed(6));
          assert.deepStrictEqual(cost, { usd: expected, source: 'reported' });
          assert.ok(usageLines[i].endsWith(` cost=${formatUsd(expected)}`), usageLines[i]);
        });
      });
    }

    it('a priced model still shows the reported figure (what the account was charged), not the computed one', async () => {
      const { accounted } = await conversation(server().url, PRICED.messages.id, 1);
      assert.strictEqual(accounted[0].cost?.source, 'reported');
    });
  });

  describe('without a cost frame', () => {
    const server = useFakeServer({ models: MODELS, costFrames: false });
    for (const route of ROUTES) {
      it(`${route}: computed from ${PRICED[route].id}'s prices, cache reads and writes included, as cost≈$…`, async () => {
        const [input, output, cacheRead, cacheWrite] = PRICED[route].prices;
        const { accounted, usageLines } = await conversation(server().url, PRICED[route].id, 3);
        assert.ok(accounted.some((a) => a.usage.cachedTokens > 0), 'a later turn reads the cache');
        if (route === 'messages') assert.ok(accounted.some((a) => a.usage.cacheWriteTokens > 0), 'Messages writes the cache');
        accounted.forEach(({ usage, cost }, i) => {
          const uncached = usage.contextTokens - usage.cachedTokens - usage.cacheWriteTokens;
          const usd = (uncached * input + usage.cachedTokens * cacheRead + usage.cacheWriteTokens * cacheWrite + usage.completionTokens * output) / 1e6;
          assert.strictEqual(cost?.source, 'computed');
          assert.ok(Math.abs(cost.usd - usd) < 1e-12, `${cost.usd} vs ${usd}`);
          assert.ok(usageLines[i].endsWith(` cost≈${formatUsd(usd)}`), usageLines[i]);
        });
      });

      if (route === 'messages') {
        it('messages with ttl "1h": the cache writes are priced at 2× input (Anthropic\'s 1-hour rate)', async () => {
          const { accounted } = await conversation(server().url, PRICED.messages.id, 2, { 'promptCache.anthropicTtl': '1h' });
          const { usage, cost } = accounted[0];
          assert.ok(usage.cacheWriteTokens > 0);
          const uncached = usage.contextTokens - usage.cachedTokens - usage.cacheWriteTokens;
          const usd = (uncached * 3 + usage.cachedTokens * 0.3 + usage.cacheWriteTokens * 6 + usage.completionTokens * 15) / 1e6;
          assert.ok(cost && Math.abs(cost.usd - usd) < 1e-12, `${cost?.usd} vs ${usd}`);
        });
      }

      it(`${route}: a model with no known price gets no cost field`, async () => {
        const { accounted, usageLines } = await conversation(server().url, UNPRICED[route], 1);
        assert.strictEqual(accounted[0].cost, undefined);
        assert.ok(!usageLines[0].includes('cost'), usageLines[0]);
      });
    }
  });
});
