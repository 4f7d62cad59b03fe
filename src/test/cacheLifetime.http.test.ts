/**
 * Cache lifetimes over real HTTP: the fields the engine sends (prompt_cache_retention on chat and Responses for
 * OpenAI-family models, ttl on Messages breakpoints when asked), the retention field dropped for a model after a
 * 400 naming it, and the fake server's lifetimes on a test clock: a prefix dies during a pause longer than its
 * lifetime and survives one when the longer lifetime was asked for.
 */
import * as assert from 'assert';
import type { FakeModel } from '../fakeServer';
import { chat, engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import type { NormalizedUsage } from '../core/types';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };
const LIMITS = { contextWindow: 200_000, maxOutputTokens: 8_000 };
const MINUTE = 60_000;
const MODELS: FakeModel[] = [
  { id: 'gpt-5.4-mini', contextWindow: 400_000, maxOutputTokens: 64_000, api: 'responses' },
  { id: 'gpt-5.1', contextWindow: 400_000, maxOutputTokens: 64_000, api: 'chat' },
  { id: 'glm-5.1', contextWindow: 200_000, maxOutputTokens: 32_000, api: 'chat' },
  { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, api: 'messages' },
];
const ROUTES = { models: { 'gpt-5.4-mini': { api: 'responses' }, 'gpt-5.1': { api: 'chat' }, 'glm-5.1': { api: 'chat' }, 'claude-sonnet-4-5': { api: 'messages' } } };
const long = (turn: number) => `question ${turn}: ${'a long shared context about caches. '.repeat(80)}`;

/** Runs `turns` turns of one conversation; `between(turn)` runs before each turn after the first. */
async function conversation(url: string, modelId: string, turns: number, settings: Record<string, unknown> = {}, between: (turn: number) => void = () => undefined) {
  const usages: NormalizedUsage[] = [];
  const { engine, log } = engineFor(url, { ...ROUTES, ...settings }, new MemoryStore(), fast, { onAccounted: (_m, _p, usage) => usages.push(usage) });
  const texts: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    if (turn > 0) between(turn);
    texts.push(long(turn));
    const shown: string[] = [];
    await engine.run({ purpose: 'conversation', modelId, messages: chat(...texts), tools: [] }, LIMITS, (e) => e.kind === 'text' && shown.push(e.text), new AbortController().signal);
    texts.push(shown.join(''));
  }
  return { usages, log };
}

describe('cache lifetime fields over real HTTP', () => {
  const server = useFakeServer({ models: MODELS });
  const bodies = () => server().requests.filter((r) => r.method === 'POST').map((r) => r.body);

  it('prompt_cache_retention "24h" goes to OpenAI-family models on Responses and chat by default, not to others', async () => {
    await conversation(server().url, 'gpt-5.4-mini', 1);
    await conversation(server().url, 'gpt-5.1', 1);
    await conversation(server().url, 'glm-5.1', 1);
    await conversation(server().url, 'gpt-5.1', 1, { 'promptCache.openaiRetention': 'default' });
    assert.deepStrictEqual(bodies().map((b) => b.prompt_cache_retention), ['24h', '24h', undefined, undefined]);
  });

  it('a 400 naming prompt_cache_retention: sent again at once without it, and never again for that model', async () => {
    server().enqueueFault({ name: 'unsupported-param-400', param: 'prompt_cache_retention' });
    const { usages, log } = await conversation(server().url, 'gpt-5.1', 2);
    assert.strictEqual(usages.length, 2, 'both turns answered');
    assert.deepStrictEqual(bodies().map((b) => b.prompt_cache_retention), ['24h', undefined, undefined]);
    assert.ok(log.lines.some((l) => l.level === 'warn' && l.message.includes('does not accept "prompt_cache_retention"')));
  });

  it('a 400 naming ttl: the Messages breakpoints go back to the 5-minute marker for that model, at once and from then on', async () => {
    server().enqueueFault({ name: 'unsupported-param-400', param: 'ttl' });
    const { usages } = await conversation(server().url, 'claude-sonnet-4-5', 2, { 'promptCache.anthropicTtl': '1h' });
    assert.strictEqual(usages.length, 2);
    const markers = bodies().map((b) => JSON.stringify(b).match(/"cache_control":\{[^}]*\}/g) ?? []);
    assert.ok(markers[0].every((m) => m.includes('"ttl":"1h"')), 'asked first');
    for (const later of markers.slice(1)) assert.ok(later.length > 0 && later.every((m) => m === '"cache_control":{"type":"ephemeral"}'), later.join());
  });

  it('Messages breakpoints ask for the 1-hour lifetime only when the setting says so', async () => {
    await conversation(server().url, 'claude-sonnet-4-5', 1, { 'promptCache.anthropicTtl': '1h' });
    await conversation(server().url, 'claude-sonnet-4-5', 1);
    const markers = bodies().map((b) => JSON.stringify(b).match(/"cache_control":\{[^}]*\}/g) ?? []);
    assert.ok(markers[0].length > 0 && markers[0].every((m) => m.includes('"ttl":"1h"')), markers[0].join());
    assert.ok(markers[1].length > 0 && markers[1].every((m) => !m.includes('ttl')), markers[1].join());
  });
});

describe('the fake server models cache lifetimes (test clock)', () => {
  let now = 0;
  const server = useFakeServer({ models: MODELS, cacheClock: () => now });
  beforeEach(() => {
    now = 0;
  });
  const pause = (ms: number) => () => {
    now += ms;
  };

  it('in memory (no retention field): a 6-minute pause loses the prefix; a 4-minute one keeps it', async () => {
    const lost = await conversation(server().url, 'glm-5.1', 2, {}, pause(6 * MINUTE));
    assert.strictEqual(lost.usages[1].cachedTokens, 0);
    const kept = await conversation(server().url, 'glm-5.1', 2, {}, pause(4 * MINUTE));
    assert.ok(kept.usages[1].cachedTokens > 0);
  });

  it('prompt_cache_retention "24h": the prefix outlives an hour\'s pause', async () => {
    const { usages } = await conversation(server().url, 'gpt-5.1', 2, {}, pause(60 * MINUTE));
    assert.ok(usages[1].cachedTokens > 0);
  });

  it('Messages: the 5-minute breakpoint dies in a 6-minute pause and is written again; ttl "1h" survives it', async () => {
    const short = await conversation(server().url, 'claude-sonnet-4-5', 2, {}, pause(6 * MINUTE));
    assert.strictEqual(short.usages[1].cachedTokens, 0);
    assert.ok(short.usages[1].cacheWriteTokens > short.usages[0].cacheWriteTokens, 'the whole prefix written again');
    const hour = await conversation(server().url, 'claude-sonnet-4-5', 2, { 'promptCache.anthropicTtl': '1h' }, pause(6 * MINUTE));
    assert.ok(hour.usages[1].cachedTokens > 0);
  });

  it('a read renews the lifetime: three 4-minute pauses in a row keep the prefix', async () => {
    const { usages } = await conversation(server().url, 'glm-5.1', 4, {}, pause(4 * MINUTE));
    assert.ok(usages.slice(1).every((u) => u.cachedTokens > 0));
  });
});
