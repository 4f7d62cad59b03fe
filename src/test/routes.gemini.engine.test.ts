/**
 * Gemini through the ENGINE over real HTTP (fake OpenCode server): chosen by the catalogue / table / setting,
 * the model id in the path, and a history whose calls Gemini never signed sent with the stand-in — accepted by the
 * server, said once per model at WARN.
 */
import * as assert from 'assert';
import type { ChatMessage, StreamEvent } from '../core/types';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { standInCount } from '../core/routes/gemini/geminiBody';
import { selectRoute } from '../core/models/modelTable';

/** selectRoute's choice without its per-route rule (a function), for comparing. */
const choiceOf = (query: Parameters<typeof selectRoute>[0]) => {
  const { reasonsOn: _rule, ...choice } = selectRoute(query);
  return choice;
};

const LIMITS = { contextWindow: 200_000, maxOutputTokens: 8_000 };
const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 1_000 };
const TOOLS = [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const text = (t: string): ChatMessage => ({ role: 'user', parts: [{ kind: 'text', text: t }] });

describe('gemini through the engine (real HTTP, fake OpenCode server)', () => {
  const server = useFakeServer();

  it('selectRoute picks gemini from the catalogue, the Zen prefix, a setting or what was learned; it thinks unless the catalogue says not', () => {
    assert.deepStrictEqual(choiceOf({ modelId: 'gemini-3.1-pro', catalog: 'zen' }), { route: 'gemini', source: 'snapshot', reasons: true });
    assert.deepStrictEqual(choiceOf({ modelId: 'gemini-9-flash', catalog: 'zen' }), { route: 'gemini', source: 'family', reasons: true });
    assert.deepStrictEqual(choiceOf({ modelId: 'my-gemini', override: { api: 'gemini' } }), { route: 'gemini', source: 'setting', reasons: true });
    assert.deepStrictEqual(choiceOf({ modelId: 'my-gemini', learned: 'gemini' }), { route: 'gemini', source: 'learned', reasons: true });
    assert.strictEqual(selectRoute({ modelId: 'gpt-5', catalog: 'zen', override: { api: 'chat' } }).route, 'chat');
  });

  it('an unsigned call in the history goes with the stand-in, is accepted, and is said once per model at WARN', async () => {
    const { engine, log } = engineFor(server().url, { models: { 'fake-native-gemini': { api: 'gemini' } } }, new MemoryStore(), fast);
    const history: ChatMessage[] = [
      text('what is in a.ts?'),
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'call_other_route', name: 'read', input: { path: 'a.ts' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'call_other_route', text: 'export const a = 1;' }] },
    ];
    for (let i = 0; i < 2; i++) {
      const events: StreamEvent[] = [];
      await engine.run({ purpose: 'conversation', modelId: 'fake-native-gemini', messages: history, tools: TOOLS }, LIMITS, (e) => events.push(e), new AbortController().signal);
      assert.ok(events.some((e) => e.kind === 'text'), 'answered');
    }
    const sent = server().requests.filter((r) => r.path === '/v1/models/fake-native-gemini:streamGenerateContent');
    assert.strictEqual(sent.length, 2, 'both straight to the Gemini route, accepted first time');
    assert.strictEqual(standInCount(sent[0].body as Record<string, unknown>), 1);
    const warnings = log.lines.filter((l) => l.level === 'warn');
    assert.strictEqual(warnings.length, 1, JSON.stringify(warnings));
    assert.match(warnings[0].message, /^\[gemini\] fake-native-gemini: 1 tool call\(s\) .* stand-in signature/);
  });

  it('a fresh conversation carries no stand-in and logs nothing', async () => {
    const { engine, log } = engineFor(server().url, { models: { 'fake-native-gemini': { api: 'gemini' } } }, new MemoryStore(), fast);
    await engine.run({ purpose: 'conversation', modelId: 'fake-native-gemini', messages: [text('hi')], tools: [] }, LIMITS, () => undefined, new AbortController().signal);
    assert.strictEqual(standInCount(server().requests[0].body as Record<string, unknown>), 0);
    assert.deepStrictEqual(log.lines.filter((l) => l.level === 'warn'), []);
  });
});
