/**
 * Side requests (docs/effort.md, "Side requests…") over real HTTP (fake OpenCode server): the session header on the model list, the `usage` data part
 * only for conversation turns (not title/summary requests), and id-less tool calls getting ids unique per call and
 * stable across turns.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { fetchModelList, OPENCODE_CLIENT } from '../core/request/chatTransport';
import { ChatCallFeed } from './support/chatCallFeed';
import type { ChatMessage, StreamEvent } from '../core/types';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useActivated, useFakeServer } from './support/suiteHooks';
import { isSideRequest } from '../core/request/purpose';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 1_000 };
const TOOLS = [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const system = (text: string) => double.LanguageModelChatMessage.User(text) as never;
const text = (t: string, role: ChatMessage['role'] = 'user'): ChatMessage => ({ role, parts: [{ kind: 'text', text: t }] });

describe('small things (real HTTP, fake OpenCode server)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, activateAgainst);

  it('GET /models carries x-opencode-session (one per activation) and x-opencode-client', async () => {
    await fetchModelList({ baseUrl: server().url, apiKey: undefined });
    await fetchModelList({ baseUrl: server().url, apiKey: undefined });
    const [first, second] = server().requests.filter((r) => r.method === 'GET' && r.path === '/v1/models');
    assert.match(String(first.headers['x-opencode-session']), /^models-[0-9a-f-]{36}$/);
    assert.strictEqual(second.headers['x-opencode-session'], first.headers['x-opencode-session']);
    assert.strictEqual(first.headers['x-opencode-client'], OPENCODE_CLIENT);
  });

  it('a title request gets no usage data part (the [usage] line stays); a conversation turn gets one', async () => {
    const usageParts = (parts: unknown[]) => parts.filter((p) => p instanceof double.LanguageModelDataPart && p.mimeType === 'usage').length;
    const title = await ask(ext(), 'fake-large', [system('You are an expert in crafting pithy titles for chatbot conversations. Reply with a brief title.'), user('how do I sort a list in python?')]);
    assert.strictEqual(usageParts(title.parts), 0);
    assert.strictEqual(ext().log.lines.filter((l) => l.message.startsWith('[usage]')).length, 1, 'still logged and accounted');
    const turn = await ask(ext(), 'fake-large', [user('how do I sort a list in python?')]);
    assert.strictEqual(usageParts(turn.parts), 1);
    const withTools = await ask(ext(), 'fake-large', [user('give this a title')], { tools: [{ name: 'read', description: 'read', inputSchema: { type: 'object' } }] });
    assert.strictEqual(usageParts(withTools.parts), 1, 'a request offering tools is always a conversation turn');
  });

  it('tool calls streamed without ids: unique per call, the same ids go back unchanged on the next turn', async () => {
    const { engine } = engineFor(server().url, {}, new MemoryStore(), fast);
    const calls: string[] = [];
    const history: ChatMessage[] = [text('read a.ts twice')];
    for (let turn = 0; turn < 2; turn++) {
      server().enqueueReply({ toolCalls: [{ id: '', name: 'read', arguments: '{"path":"a.ts"}' }, { id: '', name: 'read', arguments: '{"path":"a.ts"}' }] });
      const events: StreamEvent[] = [];
      await engine.run({ purpose: 'conversation', modelId: 'fake-large', messages: history, tools: TOOLS }, { contextWindow: 100_000 }, (e) => events.push(e), new AbortController().signal);
      const ids = events.flatMap((e) => (e.kind === 'toolCall' ? [e.callId] : []));
      assert.strictEqual(ids.length, 2);
      calls.push(...ids);
      history.push({ role: 'assistant', parts: events.flatMap((e) => (e.kind === 'toolCall' ? [{ kind: 'toolCall' as const, callId: e.callId, name: e.name, input: e.input }] : [])) });
      history.push({ role: 'user', parts: ids.map((callId) => ({ kind: 'toolResult' as const, callId, text: 'export const a = 1;' })) });
    }
    assert.strictEqual(new Set(calls).size, 4, `unique per call: ${calls.join(', ')}`);
    const chats = server().requests.filter((r) => r.path === '/v1/chat/completions');
    assert.strictEqual(chats.length, 2);
    const sent = JSON.stringify(chats[1].body);
    for (const id of calls.slice(0, 2)) assert.ok(sent.includes(`"id":"${id}"`) && sent.includes(`"tool_call_id":"${id}"`), 'the first turn\'s ids go back unchanged');
  });
});

describe('side requests and call ids (pure)', () => {
  it('a request that offers tools or carries tool traffic is never a side request (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (prompt, offerTools) => {
        const toolTraffic: ChatMessage = { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c', name: 'read', input: {} }] };
        const messages: ChatMessage[] = [text(`Write a title. ${prompt}`, 'system'), ...(offerTools ? [] : [toolTraffic]), text(prompt)];
        assert.strictEqual(isSideRequest(messages, offerTools ? TOOLS : []), false);
      }),
    );
  });

  it('recognizes title and summary instructions, not ordinary questions', () => {
    assert.strictEqual(isSideRequest([text('Summarize the following conversation in one paragraph.', 'system'), text('...')], []), true);
    assert.strictEqual(isSideRequest([text('Please write a brief title for the following request: fix the build')], []), true);
    assert.strictEqual(isSideRequest([text('You are a helpful assistant.', 'system'), text('how do I sort a list?')], []), false);
  });

  it('the same id-less stream in two answers gives different ids; in one answer, one id per call', () => {
    const drained = () => {
      const acc = new ChatCallFeed();
      acc.add({ index: 0, function: { name: 'read', arguments: '{}' } });
      acc.add({ index: 1, function: { name: 'read', arguments: '{}' } });
      return acc.drain().map((c) => c.callId);
    };
    const [a, b] = [drained(), drained()];
    assert.strictEqual(new Set([...a, ...b]).size, 4);
    assert.deepStrictEqual(new ChatCallFeed('n').drain(), []);
    const fixed = (nonce: string) => {
      const acc = new ChatCallFeed(nonce);
      acc.add({ index: 0, function: { name: 'read', arguments: '{}' } });
      return acc.drain()[0].callId;
    };
    assert.strictEqual(fixed('n'), fixed('n'), 'deterministic for a given answer');
  });
});
