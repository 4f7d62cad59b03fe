/**
 * Cache warming over real HTTP against the fake server, with test timers and the fake's cache clock (no sleeps):
 * nothing is sent unless it is enabled; when it is, the last request goes again with the smallest answer shortly
 * before the prefix's lifetime ends, at most N times, each logged with its cost and counted apart; the user going on
 * (or dispose) stops it, also a timer already set; and the next request is byte for byte what it would have been.
 */
import * as assert from 'assert';
import { CacheWarmer, type WarmOutcome, type WarmTimers, warmingHooks, warmingSettings } from '../core/warming/cacheWarmer';
import { WARM_LEAD_MS } from '../core/warming/lifetimes';
import { sendWarming } from '../core/warming/warmRequest';
import type { Settings } from '../core/config/settings';
import type { ChatEngine } from '../core/request/chatEngine';
import type { FakeModel } from '../fakeServer';
import { chat, engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { MemoryLogger } from './support/memoryLogger';

const MINUTE = 60_000;
const LIMITS = { contextWindow: 200_000, maxOutputTokens: 8_000 };
const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };
const MODELS: FakeModel[] = [
  { id: 'glm-5.1', contextWindow: 200_000, maxOutputTokens: 32_000, api: 'chat' },
  { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, api: 'messages' },
  { id: 'gpt-5.4-mini', contextWindow: 400_000, maxOutputTokens: 64_000, api: 'responses' },
];
const ROUTES = { 'glm-5.1': { api: 'chat' }, 'claude-sonnet-4-5': { api: 'messages' }, 'gpt-5.4-mini': { api: 'responses' } };

/** Timers a test fires by hand; `fire` runs the earliest and waits for the warming it started. */
class TestTimers implements WarmTimers {
  readonly queue: { id: number; run: () => unknown; ms: number }[] = [];
  private next = 0;
  set(run: () => unknown, ms: number): unknown {
    this.queue.push({ id: ++this.next, run, ms });
    return this.next;
  }
  clear(handle: unknown): void {
    const i = this.queue.findIndex((t) => t.id === handle);
    if (i >= 0) this.queue.splice(i, 1);
  }
  async fire(): Promise<number> {
    const timer = this.queue.shift();
    assert.ok(timer, 'a warming timer is set');
    await timer.run();
    return timer.ms;
  }
}

describe('cache warming (real HTTP, fake server, test clock)', () => {
  let now = 0;
  const server = useFakeServer({ models: MODELS, cacheClock: () => now });
  beforeEach(() => {
    now = 0;
  });
  const posts = () => server().requests.filter((r) => r.method === 'POST');

  function harness(warming: { enabled: boolean; maxRequests?: number }, modelId = 'glm-5.1', words = 250) {
    const timers = new TestTimers();
    const warmed: WarmOutcome[] = [];
    const warmLog = new MemoryLogger();
    const warmer = new CacheWarmer({
      timers,
      settings: () => warmingSettings(built.settings),
      send: (target, body, signal) => sendWarming({ endpoint: async () => ({ baseUrl: server().url, apiKey: undefined }), idleTimeoutMs: 5_000 }, target, body, signal),
      log: warmLog,
      onWarmed: (_t, outcome) => warmed.push(outcome),
    });
    const lines = { filter: (keep: (line: string) => boolean) => warmLog.lines.map((l) => l.message).filter(keep) };
    const hooks = warmingHooks(warmer);
    const built: { engine: ChatEngine; settings: Settings; log: MemoryLogger } = engineFor(server().url, { models: ROUTES, 'promptCache.warming.enabled': warming.enabled, 'promptCache.warming.maxRequests': warming.maxRequests ?? 3 }, new MemoryStore(), fast, hooks);
    const texts: string[] = [];
    const turn = async (): Promise<void> => {
      texts.push(`question ${texts.length}: ${'a shared context worth caching. '.repeat(words)}`);
      const shown: string[] = [];
      await built.engine.run({ purpose: 'conversation', modelId, messages: chat(...texts), tools: [] }, LIMITS, (e) => e.kind === 'text' && shown.push(e.text), new AbortController().signal);
      texts.push(shown.join(''));
    };
    return { timers, warmed, warmer, turn, lines, log: built.log };
  }

  it('off by default: no timer, no request beyond the user\'s', async () => {
    const h = harness({ enabled: false });
    await h.turn();
    assert.strictEqual(h.timers.queue.length, 0);
    assert.strictEqual(posts().length, 1);
  });

  it('on: the last request again with max_tokens 1, 30 s before the 5-minute lifetime ends, at most N times, each logged with its cost', async () => {
    const h = harness({ enabled: true, maxRequests: 2 });
    await h.turn();
    const waits = [await h.timers.fire(), await h.timers.fire()];
    assert.deepStrictEqual(waits, [5 * MINUTE - WARM_LEAD_MS, 5 * MINUTE - WARM_LEAD_MS]);
    assert.strictEqual(h.timers.queue.length, 0, 'no third: at most maxRequests per pause');
    const [answered, ...warms] = posts().map((r) => r.body);
    assert.strictEqual(warms.length, 2);
    for (const warm of warms) assert.deepStrictEqual(warm, { ...answered, max_tokens: 1 }, 'same prefix, same tools, the smallest answer');
    assert.strictEqual(h.warmed.length, 2);
    assert.ok(h.warmed.every((w) => w.cost?.source === 'reported' && w.usage!.cachedTokens > 0));
    const lines = h.lines.filter((l) => l.startsWith('[warming]'));
    assert.strictEqual(lines.length, 2);
    assert.match(lines[0], /^\[warming\] glm-5\.1 re-read the cached prefix \(1 of 2\): prompt=\d+ cached=\d+ cost=\$\d+\.\d{4,6}$/);
    assert.strictEqual(h.log.lines.filter((l) => l.message.startsWith('[usage]')).length, 1, 'warming writes no [usage] line: it is no answer');
  });

  it('keeps the prefix alive across a pause longer than its lifetime, and the next request is byte for byte the same', async () => {
    const cold = harness({ enabled: false });
    await cold.turn();
    now += 13 * MINUTE;
    await cold.turn();
    const coldUsage = cold.log.lines.filter((l) => l.message.startsWith('[usage]')).map((l) => l.message);
    assert.match(coldUsage[1], / cached=0 /, 'without warming the prefix died in the pause');
    const coldBodies = posts().map((r) => JSON.stringify(r.body));

    server().reset();
    now = 0;
    const warm = harness({ enabled: true, maxRequests: 3 });
    await warm.turn();
    for (let i = 0; i < 3; i++) {
      now += 4.5 * MINUTE;
      await warm.timers.fire();
    }
    now += 3 * MINUTE;
    await warm.turn();
    const warmUsage = warm.log.lines.filter((l) => l.message.startsWith('[usage]')).map((l) => l.message);
    assert.doesNotMatch(warmUsage[1], / cached=0 /, 'the warmed prefix was still cached');
    const bodies = posts().map((r) => JSON.stringify(r.body));
    assert.strictEqual(bodies.length, 5);
    assert.deepStrictEqual([bodies[0], bodies[4]], coldBodies, 'the user\'s requests are exactly what they were without warming');
  });

  it('stops when the user goes on: the next request clears the timer, and nothing warms the old pause', async () => {
    const h = harness({ enabled: true });
    await h.turn();
    const stale = h.timers.queue[0];
    await h.turn();
    assert.strictEqual(h.timers.queue.length, 1, 'only the new pause has a timer');
    assert.notStrictEqual(h.timers.queue[0].id, stale.id);
    await stale.run();
    assert.strictEqual(posts().length, 2, 'the old pause\'s timer, had it fired, sends nothing');
  });

  it('not for a prompt too short to be cached (under 1,024 tokens: a chat title request, say)', async () => {
    const h = harness({ enabled: true }, 'glm-5.1', 5);
    await h.turn();
    assert.strictEqual(h.timers.queue.length, 0);
  });

  it('never after dispose (the window closed)', async () => {
    const h = harness({ enabled: true });
    await h.turn();
    const timer = h.timers.queue[0];
    h.warmer.dispose();
    assert.strictEqual(h.timers.queue.length, 0);
    await timer.run();
    assert.strictEqual(posts().length, 1);
  });

  it('Messages and Responses: the smallest answer each route allows, the cache markers untouched', async () => {
    const messages = harness({ enabled: true, maxRequests: 1 }, 'claude-sonnet-4-5');
    await messages.turn();
    await messages.timers.fire();
    const responses = harness({ enabled: true, maxRequests: 1 }, 'gpt-5.4-mini');
    await responses.turn();
    assert.strictEqual(responses.timers.queue.length, 0, 'prompt_cache_retention "24h" outlives any pause: no warming');
    const [m0, m1] = posts().map((r) => r.body);
    assert.deepStrictEqual(m1, { ...m0, max_tokens: 1 });
    assert.ok(messages.warmed[0].usage!.cachedTokens > 0 && messages.warmed[0].usage!.cacheWriteTokens === 0, 'a pure read of what was written');
  });
});
