/** The fake server's pure parts: prefix cache model, usage shapes, reply deltas. No HTTP here. */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { CACHE_GRANULARITY_TOKENS, PER_MESSAGE_OVERHEAD_TOKENS, PrefixCacheModel } from '../cacheModel/prefixCache';
import { countTextTokens, TOKENS_PER_IMAGE } from '../cacheModel/valueTokens';
import { anthropicUsage, buildUsage, deepSeekUsage, openAiUsage } from '../fakeServer/usageShapes';
import { defaultReplyText, replyDeltas, splitIntoChunks } from '../fakeServer/replies';

const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

function conversation(turns: number): object[] {
  const messages: object[] = [{ role: 'system', content: 'You are a careful assistant. '.repeat(20) }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: `Question ${i}: how does part ${i} of the build work? `.repeat(8) });
    messages.push({ role: 'assistant', content: `Part ${i} compiles the sources and then bundles them. `.repeat(8) });
  }
  return messages;
}

const roundDown = (tokens: number): number => Math.floor(tokens / 64) * 64;

describe('fake server: prefix cache model', () => {
  it('counts each message as a chat template does: its text plus a fixed overhead (not its JSON)', () => {
    const message = { role: 'user', content: 'hello "there", how are you?' };
    const measure = new PrefixCacheModel().measure({ messages: [message] });
    assert.equal(measure.promptTokens, countTextTokens(message.content) + PER_MESSAGE_OVERHEAD_TOKENS);
    assert.equal(measure.blocks.length, 2, 'empty tools block + one message');
    assert.equal(measure.blocks[0].tokens, 0);
  });

  it('a growing conversation in one session hits the previous prompt, rounded down to 64', () => {
    const cache = new PrefixCacheModel();
    const messages = conversation(4);
    const first = cache.observe('s1', { tools, messages: messages.slice(0, 5) });
    assert.equal(first.cachedTokens, 0);
    assert.ok(first.promptTokens > 300, `prompt should be sizeable, got ${first.promptTokens}`);
    const second = cache.observe('s1', { tools, messages: messages.slice(0, 7) });
    assert.equal(second.cachedTokens, roundDown(first.promptTokens));
    assert.equal(CACHE_GRANULARITY_TOKENS, 64);
  });

  it('a changed early message ends the hit after the blocks before it', () => {
    const cache = new PrefixCacheModel();
    const messages = conversation(3);
    cache.observe('s1', { tools, messages });
    const edited = messages.map((m, i) => (i === 2 ? { role: 'assistant', content: 'rewritten' } : m));
    const measure = cache.measure({ tools, messages: edited });
    const unchangedPrefix = measure.blocks[0].tokens + measure.blocks[1].tokens + measure.blocks[2].tokens;
    const result = cache.observe('s1', { tools, messages: edited });
    assert.equal(result.cachedTokens, roundDown(unchangedPrefix));
    assert.ok(result.cachedTokens < result.promptTokens / 2);
  });

  it('any earlier request of the session counts, not only the latest', () => {
    const cache = new PrefixCacheModel();
    const messages = conversation(3);
    const original = cache.observe('s1', { tools, messages });
    cache.observe('s1', { tools, messages: [{ role: 'user', content: 'unrelated' }] });
    const again = cache.observe('s1', { tools, messages: [...messages, { role: 'user', content: 'more' }] });
    assert.equal(again.cachedTokens, roundDown(original.promptTokens));
  });

  it('other sessions, missing session ids and changed tools get no hit', () => {
    const cache = new PrefixCacheModel();
    const messages = conversation(3);
    cache.observe('s1', { tools, messages });
    assert.equal(cache.observe('s2', { tools, messages }).cachedTokens, 0);
    assert.equal(cache.observe(undefined, { tools, messages }).cachedTokens, 0);
    assert.equal(cache.observe(undefined, { tools, messages }).cachedTokens, 0);
    const otherTools = [{ ...tools[0], function: { ...tools[0].function, name: 'write_file' } }];
    assert.equal(cache.observe('s1', { tools: otherTools, messages }).cachedTokens, 0);
  });

  it('reports the last message tokens and forgets sessions on reset', () => {
    const cache = new PrefixCacheModel();
    const messages = conversation(2);
    const result = cache.observe('s1', { messages });
    const last = messages[messages.length - 1];
    assert.equal(result.lastMessageTokens, countTextTokens((last as { content: string }).content) + PER_MESSAGE_OVERHEAD_TOKENS);
    cache.reset();
    assert.equal(cache.observe('s1', { messages }).cachedTokens, 0);
  });

  it('memoizes block counts: a repeated request tokenizes only its new block', () => {
    const cache = new PrefixCacheModel();
    const messages = conversation(10);
    cache.observe('s1', { tools, messages });
    const tokenizedCold = cache.stats.blocksTokenized;
    assert.equal(tokenizedCold, messages.length + 1);
    // Fresh objects with equal content, as JSON.parse would give the server.
    const copy = JSON.parse(JSON.stringify([...messages, { role: 'user', content: 'next' }])) as object[];
    cache.observe('s1', { tools, messages: copy });
    assert.equal(cache.stats.blocksTokenized, tokenizedCold + 1);
    assert.equal(cache.stats.blocksFromMemo, messages.length + 1);
  });

  it('prices an image part at a fixed amount instead of tokenizing its base64', () => {
    const dataUrl = `data:image/png;base64,${'iVBORw0KGgo'.repeat(20_000)}`;
    const withImage = { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: dataUrl } }] };
    const placeholder = { role: 'user', content: [{ type: 'text', text: 'what is this?' }] };
    const cache = new PrefixCacheModel();
    const imageTokens = cache.measure({ messages: [withImage] }).promptTokens;
    assert.equal(imageTokens - cache.measure({ messages: [placeholder] }).promptTokens, TOKENS_PER_IMAGE);
  });

  it('a different image breaks the prefix even though it costs the same', () => {
    const image = (fill: string) => ({ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${fill.repeat(500)}` } }] });
    const cache = new PrefixCacheModel();
    const tail = conversation(2);
    cache.observe('s1', { messages: [image('AAAA'), ...tail] });
    assert.equal(cache.observe('s1', { messages: [image('BBBB'), ...tail] }).cachedTokens, 0);
  });
});

describe('fake server: usage shapes', () => {
  const counts = { promptTokens: 1000, cachedTokens: 640, completionTokens: 50, lastMessageTokens: 100 };
  const repeated = { ...counts, cachedTokens: 960, completionTokens: 5 };

  // One row per example: the shape, its fields for the counts, and what they must be.
  const examples: [string, () => unknown, object][] = [
    ['openai: cached inside prompt_tokens', () => openAiUsage(counts), { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050, prompt_tokens_details: { cached_tokens: 640 } }],
    ['deepseek: hit + miss = prompt_tokens', () => deepSeekUsage(counts), { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 360 }],
    ['anthropic: input is the last message, the rest of the miss is a cache write', () => anthropicUsage(counts), { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 640, cache_creation_input_tokens: 260 }],
    ['anthropic, a repeated request: the miss (only the rounding remainder) is under the last message', () => anthropicUsage(repeated), { input_tokens: 40, output_tokens: 5, cache_read_input_tokens: 960, cache_creation_input_tokens: 0 }],
  ];
  for (const [name, usage, expected] of examples) it(name, () => assert.deepEqual(usage(), expected));

  it('every shape accounts for the whole prompt, with no negative field', () => {
    const anyCounts = fc
      .tuple(fc.nat(2_000_000), fc.nat(2_000_000), fc.nat(100_000), fc.nat(2_000_000))
      .map(([prompt, cachedSeed, completion, last]) => ({
        promptTokens: prompt,
        cachedTokens: cachedSeed % (prompt + 1),
        completionTokens: completion,
        lastMessageTokens: last % (prompt + 1),
      }));
    fc.assert(
      fc.property(anyCounts, (c) => {
        const a = buildUsage('anthropic', c) as Record<string, number>;
        const d = buildUsage('deepseek', c) as Record<string, number>;
        const o = buildUsage('openai', c) as { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
        assert.equal(a.input_tokens + a.cache_read_input_tokens + a.cache_creation_input_tokens, c.promptTokens);
        assert.ok(Object.values(a).every((v) => v >= 0));
        assert.equal(d.prompt_cache_hit_tokens + d.prompt_cache_miss_tokens, d.prompt_tokens);
        assert.equal(o.prompt_tokens_details.cached_tokens, c.cachedTokens);
      }),
    );
  });
});

describe('fake server: replies', () => {
  it('splits tool-call arguments over several chunks that join back exactly', () => {
    const args = '{"path":"src/a.ts","line":42}';
    const deltas = replyDeltas({ toolCalls: [{ id: 'call_1', name: 'read_file', arguments: args }], chunkSize: 8 });
    const pieces = deltas.map((d) => d.tool_calls?.[0]?.function.arguments ?? '').filter((p) => p.length > 0);
    assert.equal(pieces.length, 4);
    assert.equal(pieces.join(''), args);
    assert.deepEqual(deltas[0], {
      role: 'assistant',
      tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '' } }],
    });
  });

  it('sends reasoning before text', () => {
    const deltas = replyDeltas({ reasoning: 'think first', text: 'answer', chunkSize: 6 });
    assert.deepEqual(deltas, [
      { role: 'assistant', reasoning_content: 'think ' },
      { reasoning_content: 'first' },
      { content: 'answer' },
    ]);
  });

  it('never splits a surrogate pair', () => {
    assert.deepEqual(splitIntoChunks('a😀b😀', 2), ['a😀', 'b😀']);
  });

  it('the default reply is deterministic, names the turn and question, and is about 40 tokens', () => {
    const messages = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: [{ type: 'text', text: 'How do I   configure the build for production use in this repository today?' }] },
    ];
    const text = defaultReplyText(messages, 40);
    assert.ok(text.startsWith('Answer 2 to: How do I configure the build for production use in this repo river stone'), text);
    assert.equal(text, defaultReplyText(JSON.parse(JSON.stringify(messages)), 40));
    assert.equal(countTextTokens(text), 40);
  });
});
