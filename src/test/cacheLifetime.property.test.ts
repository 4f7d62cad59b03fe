/**
 * Cache lifetime fields (routes/requestParts.ts) in the bodies: `prompt_cache_retention: "24h"` for OpenAI-family
 * models on Chat Completions and Responses, `ttl: "1h"` on every Messages breakpoint when asked; and, as
 * properties over random growing conversations, that they never change the bytes before the cut: each turn's
 * body is the previous one plus appended bytes (chat, Responses), and a lifetime changes nothing but its own fields.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { routeById } from '../core/routes/registry/registry';
import type { RouteId } from '../core/routeId';
import type { BodyInput } from '../core/routes/route';
import type { WireMessage, WireTool } from '../core/wire/wireTypes';
import { DEFAULT_CACHE_LIFETIME, isOpenAiFamily, longLivedWrites, type CacheLifetime } from '../core/routes/requestParts';
import { runs } from './support/propertyRuns';

const TOOLS: WireTool[] = [{ type: 'function', function: { name: 'read', description: 'read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const LIFETIMES: CacheLifetime[] = [
  { openaiRetention: '24h', anthropicTtl: '5m' },
  { openaiRetention: '24h', anthropicTtl: '1h' },
  { openaiRetention: 'default', anthropicTtl: '1h' },
  { openaiRetention: 'default', anthropicTtl: '5m' },
];
const MODELS = ['gpt-5.4-mini', 'openai/gpt-5', 'o4-mini', 'claude-sonnet-4-5', 'glm-5.1'];

function body(route: RouteId, modelId: string, messages: WireMessage[], cacheLifetime?: CacheLifetime): Record<string, unknown> {
  const input: BodyInput = { modelId, messages, tools: TOOLS, sessionId: 'conv-1', maxOutputTokens: 8_000, cacheLifetime };
  return routeById(route).buildBody(input);
}

/** The body without what a lifetime adds: the retention field and every marker's ttl. */
function withoutLifetime(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLifetime);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'prompt_cache_retention' || key === 'ttl') continue;
    out[key] = withoutLifetime(inner);
  }
  return out;
}

const turnArb = fc.tuple(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ minLength: 1, maxLength: 40 }));
const historyArb = fc.array(turnArb, { minLength: 2, maxLength: 8 }).map((turns) => {
  const messages: WireMessage[] = [{ role: 'system', content: 'You are terse.' }];
  for (const [question, answer] of turns) messages.push({ role: 'user', content: question }, { role: 'assistant', content: answer });
  return messages;
});

describe('cache lifetime fields in the bodies', () => {
  it('OpenAI-family models get prompt_cache_retention "24h" on chat and Responses by default; others and "default" get none', () => {
    const messages: WireMessage[] = [{ role: 'user', content: 'hi' }];
    for (const route of ['chat', 'responses'] as const) {
      assert.strictEqual(body(route, 'gpt-5.4-mini', messages, DEFAULT_CACHE_LIFETIME).prompt_cache_retention, '24h');
      assert.strictEqual(body(route, 'openai/gpt-5', messages, DEFAULT_CACHE_LIFETIME).prompt_cache_retention, '24h');
      assert.ok(!('prompt_cache_retention' in body(route, 'glm-5.1', messages, DEFAULT_CACHE_LIFETIME)));
      assert.ok(!('prompt_cache_retention' in body(route, 'gpt-5.4-mini', messages, { ...DEFAULT_CACHE_LIFETIME, openaiRetention: 'default' })));
      assert.ok(!('prompt_cache_retention' in body(route, 'gpt-5.4-mini', messages)), 'no lifetime asked: none sent');
    }
    assert.ok(!('prompt_cache_retention' in body('messages', 'gpt-5.4-mini', messages, DEFAULT_CACHE_LIFETIME)), 'Messages has no such field');
    assert.deepStrictEqual(['gpt-5', 'o3', 'chatgpt-4o-latest', 'glm-5.1', 'claude-opus-4-8', 'gpto'].map(isOpenAiFamily), [true, true, true, false, false, false]);
  });

  it('Messages: every breakpoint carries ttl "1h" when asked, none by default (the 5-minute marker is unchanged)', () => {
    const messages: WireMessage[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }];
    const markers = (b: Record<string, unknown>) => JSON.stringify(b).match(/"cache_control":\{[^}]*\}/g) ?? [];
    const long = body('messages', 'claude-sonnet-4-5', messages, { ...DEFAULT_CACHE_LIFETIME, anthropicTtl: '1h' });
    const short = body('messages', 'claude-sonnet-4-5', messages, DEFAULT_CACHE_LIFETIME);
    assert.strictEqual(markers(long).length, 4);
    assert.ok(markers(long).every((m) => m === '"cache_control":{"type":"ephemeral","ttl":"1h"}'), markers(long).join());
    assert.ok(markers(short).every((m) => m === '"cache_control":{"type":"ephemeral"}'));
    assert.deepStrictEqual(short, body('messages', 'claude-sonnet-4-5', messages), 'the default is the body as it always was');
    assert.strictEqual(longLivedWrites(long), true);
    assert.strictEqual(longLivedWrites(short), false);
  });

  it('property: a lifetime changes nothing but its own fields, on every route and model', () => {
    fc.assert(
      fc.property(historyArb, fc.constantFrom(...LIFETIMES), fc.constantFrom(...MODELS), fc.constantFrom<RouteId>('chat', 'responses', 'messages', 'gemini'), (messages, lifetime, model, route) => {
        assert.deepStrictEqual(withoutLifetime(body(route, model, messages, lifetime)), withoutLifetime(body(route, model, messages)));
      }),
      { numRuns: runs(300) },
    );
  });

  it('property: with any lifetime, each turn\'s chat and Responses body is the previous one plus appended bytes', () => {
    fc.assert(
      fc.property(historyArb, fc.constantFrom(...LIFETIMES), fc.constantFrom(...MODELS), fc.constantFrom<RouteId>('chat', 'responses'), (messages, lifetime, model, route) => {
        for (let n = 3; n + 2 <= messages.length; n += 2) {
          const before = JSON.stringify(body(route, model, messages.slice(0, n), lifetime));
          const after = JSON.stringify(body(route, model, messages.slice(0, n + 2), lifetime));
          // The earlier body without its closing `]}` is a byte prefix of the later one.
          assert.ok(after.startsWith(before.slice(0, -2)), `${route} ${model} turn ${n}`);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
