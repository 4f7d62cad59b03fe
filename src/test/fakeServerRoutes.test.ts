/** The fake server's native routes: the breakpoint cache model (pure) and the chat faults on /responses and /messages. */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { APIError } from 'openai';
import { BreakpointCache, LOOKBACK_BLOCKS, promptBlocks } from '../cacheModel/breakpointCache';
import type { RouteId } from '../core/routeId';
import type { FaultSpec } from '../fakeServer';
import { useFakeServer } from './support/suiteHooks';
import { askRoute } from './support/routeClient';
import { callsOf, textOf } from './support/routeHarness';

const mark = { type: 'ephemeral' };
const text = (t: string, marked = false) => ({ type: 'text', text: t, ...(marked ? { cache_control: mark } : {}) });
const long = (i: number) => `Block ${i}: `.padEnd(400, 'lorem ipsum ');

describe('fake server: Anthropic breakpoint cache model', () => {
  it('caches nothing without breakpoints, writes up to the last one, reads it back next time', () => {
    const cache = new BreakpointCache();
    const messages = [{ role: 'user', content: [text(long(1)), text(long(2))] }];
    const plain = cache.observe('s', { messages });
    assert.ok(plain.ok && plain.usage.cache_creation_input_tokens === 0 && plain.usage.cache_read_input_tokens === 0);
    const marked = [{ role: 'user', content: [text(long(1)), text(long(2), true)] }];
    const first = cache.observe('s', { messages: marked });
    assert.ok(first.ok);
    assert.equal(first.usage.cache_creation_input_tokens, first.promptTokens);
    assert.equal(first.usage.input_tokens, 0);
    const grown = [...marked, { role: 'assistant', content: [text('ok')] }, { role: 'user', content: [text(long(3), true)] }];
    const second = cache.observe('s', { messages: grown });
    assert.ok(second.ok);
    assert.equal(second.usage.cache_read_input_tokens, first.promptTokens, 'found by looking back from the new breakpoint');
    assert.equal(second.usage.input_tokens + second.usage.cache_read_input_tokens + second.usage.cache_creation_input_tokens, second.promptTokens);
    const elsewhere = cache.observe('other', { messages: grown });
    assert.ok(elsewhere.ok && elsewhere.usage.cache_read_input_tokens === 0, 'another session reads nothing');
  });

  it('looks back only 20 blocks from a breakpoint; the marker itself is not part of the cached content', () => {
    const cache = new BreakpointCache();
    const head = [{ role: 'user', content: [text(long(0), true)] }];
    cache.observe('s', { messages: head });
    const far = [{ role: 'user', content: [text(long(0)), ...Array.from({ length: LOOKBACK_BLOCKS + 1 }, (_, i) => text(`x${i}`)), text('end', true)] }];
    const miss = cache.observe('s', { messages: far });
    assert.ok(miss.ok && miss.usage.cache_read_input_tokens === 0, 'the write is 22 blocks back: out of reach');
    const near = [{ role: 'user', content: [text(long(0)), text('a'), text('end', true)] }];
    const hit = cache.observe('s', { messages: near });
    assert.ok(hit.ok && hit.usage.cache_read_input_tokens > 0, 'an unmarked copy of the written block still matches');
  });

  it('refuses more than 4 breakpoints; usage always adds up to the prompt (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(fc.string({ maxLength: 20 }), fc.boolean()), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }), (turns) => {
        const cache = new BreakpointCache();
        const messages: { role: string; content: object[] }[] = [];
        for (const blocks of turns) {
          messages.push({ role: messages.length % 2 ? 'assistant' : 'user', content: blocks.map(([t, m]) => text(t, m)) });
          const marks = promptBlocks({ messages }).filter((b) => b.breakpoint).length;
          const result = cache.observe('s', { messages });
          if (marks > 4) assert.ok(!result.ok && result.breakpoints === marks);
          else {
            assert.ok(result.ok);
            const u = result.usage;
            assert.equal(u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens, result.promptTokens);
            assert.ok(u.input_tokens >= 0 && u.cache_creation_input_tokens >= 0);
          }
        }
      }),
    );
  });
});

describe('fake server: chat faults on the native routes', () => {
  const server = useFakeServer();
  const ask = (route: RouteId, fault: FaultSpec) => {
    server().enqueueFault(fault);
    return askRoute(server().url, route, { modelId: route === 'responses' ? 'fake-responses' : 'fake-messages', messages: [{ role: 'user', content: 'hello' }], tools: [], sessionId: 's' });
  };

  for (const route of ['responses', 'messages'] as RouteId[]) {
    it(`${route}: HTTP errors, cut streams, malformed frames, no terminal event, reasoning-only, invalid tool JSON`, async () => {
      await assert.rejects(ask(route, { name: 'status-429', seconds: 2 }), (e: unknown) => e instanceof APIError && e.status === 429);
      await assert.rejects(ask(route, { name: 'cut-after-text', afterChunks: 4 }), /terminated|other side closed|socket/i);
      const noEnd = await ask(route, { name: 'no-done' });
      assert.equal(noEnd.result.ended, false, 'no response.completed / message_stop: not complete');
      assert.match(textOf(noEnd.events, 'text'), /^Answer 1 to: hello/);
      const malformed = await ask(route, { name: 'malformed-chunk', afterChunks: 3 });
      assert.match(textOf(malformed.events, 'text'), /^Answer 1 to: hello/);
      const thinking = await ask(route, { name: 'reasoning-only' });
      assert.equal(textOf(thinking.events, 'text'), textOf(thinking.events, 'thinking'), 'shown as text too');
      await assert.rejects(ask(route, { name: 'invalid-tool-json' }), /not valid JSON/);
      const cut = await ask(route, { name: 'cut-in-tool-call', afterChunks: 4 }).catch(() => undefined);
      assert.equal(cut, undefined, 'a cut inside a tool call never yields a call');
      const ok = await ask(route, { name: 'think-tags' });
      assert.deepEqual(callsOf(ok.events), []);
    });
  }
});
