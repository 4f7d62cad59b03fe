/**
 * Over real HTTP (fake OpenCode server, Anthropic Messages route, a thinking model with a 60k window): an agent
 * turn whose every round thinks ~80,000 characters. The reasoning memory does not keep thinking that long
 * (64,000 characters), so the history the trim sees carries none of it; the signed thinking blocks are still
 * remembered (NativeReplayMemory keeps answers up to 256,000 characters) and passed back on every later round.
 * Before layouts were measured the trim thought a few rounds fit while the body carried all that thinking, and
 * the server answered "maximum context length"; now the blocks count in their messages' size, the old rounds
 * are cut, and every request fits.
 */
import * as assert from 'assert';
import { DEFAULT_MODELS } from '../fakeServer/models';
import type { FakeModel } from '../fakeServer/types';
import type { ChatMessage } from '../core/types';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { filler } from './support/trimHarness';

const MODEL = 'fake-thinker';
const WINDOW = 60_000;
const THINKER: FakeModel = { id: MODEL, contextWindow: WINDOW, maxOutputTokens: 4_000, toolCalling: true, imageInput: false, api: 'messages', reasons: true };
const LIMITS = { contextWindow: WINDOW, maxOutputTokens: 4_000 };
const SETTINGS = { models: { [MODEL]: { api: 'messages' } }, reservedOutputTokens: 4_000 };
const TOOLS = [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };
const ROUNDS = 7;

describe('native items are measured: a long-thinking agent turn over real HTTP', () => {
  const server = useFakeServer({ models: [...DEFAULT_MODELS, THINKER] });

  it('Messages: ~80,000 characters of signed thinking per round are counted, old rounds are cut, and no request exceeds the window', async () => {
    const { engine, log } = engineFor(server().url, SETTINGS, new MemoryStore(), fast);
    const history: ChatMessage[] = [{ role: 'system', parts: [{ kind: 'text', text: 'You are a careful agent.' }] }, { role: 'user', parts: [{ kind: 'text', text: 'Read every file and fix the build.' }] }];
    for (let round = 0; round < ROUNDS; round++) {
      const callId = `call_${round}`;
      const thinking = filler(13_000, round);
      assert.ok(thinking.length > 64_000 && thinking.length < 120_000, `thinking of ${thinking.length} characters`);
      server().enqueueReply({ reasoning: thinking, text: `Reading f${round}.ts.`, toolCalls: [{ id: callId, name: 'read', arguments: JSON.stringify({ path: `f${round}.ts` }) }], chunkSize: 8_000 });
      const outcome = await engine.run({ purpose: 'conversation', modelId: MODEL, messages: history, tools: TOOLS }, LIMITS, () => undefined, new AbortController().signal);
      assert.ok(outcome.usage && outcome.usage.contextTokens <= WINDOW, `round ${round}: the server counted ${outcome.usage?.contextTokens} tokens`);
      // VS Code's history of the answer: its text and call (no thinking part), then the tool's result.
      history.push({ role: 'assistant', parts: [{ kind: 'text', text: `Reading f${round}.ts.` }, { kind: 'toolCall', callId, name: 'read', input: { path: `f${round}.ts` } }] });
      history.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: `export const f${round} = ${round};` }] });
    }
    const tooLong = log.lines.filter((l) => /too long|context length/i.test(l.message));
    assert.deepStrictEqual(tooLong.map((l) => l.message), [], 'no request was rejected as too long');
    assert.ok(log.lines.some((l) => /^\[history-trim\] Dropped \d+ old message/.test(l.message)), 'the old rounds were cut');
    const last = server().requests.at(-1)!.body as { messages: { content: { type: string }[] }[] };
    const thinkingBlocks = last.messages.flatMap((m) => m.content).filter((b) => b.type === 'thinking').length;
    assert.ok(thinkingBlocks > 0 && thinkingBlocks < ROUNDS, `the last request passed back ${thinkingBlocks} thinking blocks (kept rounds only)`);
  });
});
