/** The context-limit safety net (the safety net) and the overflow sensor wired into the engine, over real HTTP. */
import * as assert from 'assert';
import { accountUsage } from '../core/request/accountUsage';
import { filler } from './support/trimHarness';
import { chat, engineFor, MemoryStore, preparedBy, runOnce } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { normalizeUsage } from '../core/routes/chat/chatChunk';

function longChat(turns: number, tokensPerTurn: number) {
  return chat('ANCHOR: build the parser', ...Array.from({ length: turns * 2 }, (_, i) => `${i} ${filler(tokensPerTurn, i)}`), 'current question');
}

describe('safety net: learned limits, fallback, context-length retry', () => {
  const server = useFakeServer();
  const lastChat = () => server().requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!.body as { messages: unknown[] };

  it('answers a context-length 400 by learning the limit, re-trimming and retrying once — the user only sees the answer', async () => {
    const { engine, log, store } = engineFor(server().url);
    const messages = longChat(30, 400);
    server().enqueueFault({ name: 'context-length-400', limit: 12_000 });
    server().enqueueReply({ text: 'fits now' });
    const { text } = await runOnce(engine, 'fake-large', messages, { contextWindow: 1_000_000, maxOutputTokens: 32_000 });
    assert.strictEqual(text, 'fits now');
    const chats = server().requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.strictEqual(chats.length, 2, 'exactly one retry');
    assert.ok(chats[1].body.messages.length < chats[0].body.messages.length, 'the retry was trimmed');
    assert.strictEqual((store.values.get('opencode.learnedLimits') as Record<string, { window?: number }>)['fake-large'].window, 12_000);
    assert.ok(log.messages('warn').some((m) => m.includes('limit 12000 tokens, now remembered')));
    assert.ok(log.messages('info').some((m) => m.startsWith('[history-trim] Dropped')));
  });

  it('keeps a learned limit across a restart: the first request after it is trimmed without any 400', async () => {
    const store = new MemoryStore();
    store.update('opencode.learnedLimits', { 'fake-large': 12_000 });
    const { engine } = engineFor(server().url, {}, store);
    assert.strictEqual(engine.factsFor('fake-large', { contextWindow: 1_000_000 }).contextWindow, 12_000);
    await runOnce(engine, 'fake-large', longChat(30, 400), { contextWindow: 1_000_000, maxOutputTokens: 32_000 });
    assert.strictEqual(server().requests.filter((r) => r.path.endsWith('/chat/completions')).length, 1);
  });

  it('does not retry a second context-length 400 in a row; the user gets a sentence that says what to do', async () => {
    const { engine } = engineFor(server().url);
    server().enqueueFault({ name: 'context-length-400', limit: 12_000 });
    server().enqueueFault({ name: 'context-length-400', limit: 12_000 });
    await assert.rejects(runOnce(engine, 'fake-large', longChat(30, 400), { contextWindow: 1_000_000 }), /too long for fake-large even after trimming \(HTTP 400\)\. If this chat is long, start a new one; if it is new, .*pick a model with a larger context window/);
    assert.strictEqual(server().requests.length, 2);
  });

  // No window listed (the `{}` limits): the engine knows none for the model, as for one no catalogue describes.
  it('trims a model with an unknown window to opencode.contextLimitFallback, and says so once', async () => {
    const { engine, log } = engineFor(server().url, { contextLimitFallback: 16_000 });
    const prepared = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: longChat(40, 400), tools: [] });
    assert.strictEqual(prepared.budget.contextWindow, 16_000);
    assert.strictEqual(prepared.budget.windowSource, 'fallback');
    assert.ok(prepared.trim.removed > 0);
    assert.ok(lastChat().messages.length < longChat(40, 400).length, 'the body sent was cut');
    await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: longChat(40, 400), tools: [] });
    assert.strictEqual(log.messages('info').filter((m) => m.includes('context window unknown')).length, 1);
  });

  it('does not trim an unknown model when the fallback is 0, with a warning', async () => {
    const { engine, log } = engineFor(server().url, { contextLimitFallback: 0 });
    const prepared = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: longChat(40, 400), tools: [] });
    assert.strictEqual(prepared.trim.removed, 0);
    assert.strictEqual(lastChat().messages.length, longChat(40, 400).length, 'the whole history was sent');
    assert.ok(log.messages('warn').some((m) => m.includes('contextLimitFallback is 0, so its history is not trimmed')));
  });

  it('fires the overflow sensor when the reported usage reaches the usable window, and cuts one grid move earlier next time', async () => {
    const { engine, log } = engineFor(server().url);
    const messages = longChat(40, 300);
    const limits = { contextWindow: 30_000, maxOutputTokens: 2_000 };
    const plan = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages, tools: [] }, limits);
    assert.strictEqual(plan.trim.gridMoves, 0);
    // The endpoint counted more than we estimated (Anthropic shape: input + cache read + cache write).
    const usage = normalizeUsage({ input_tokens: 1_000, cache_read_input_tokens: 25_000, cache_creation_input_tokens: 2_000, output_tokens: 50 });
    assert.ok(usage);
    const result = accountUsage(engine.accounting, 'fake-large', plan, usage);
    assert.ok(result.overflow);
    assert.ok(log.messages('warn').includes('[overflow] used=28000 usable=28000 limit=30000 reserved=2000'), log.messages().join('\n'));
    assert.strictEqual(engine.states.get(plan.sessionId).extraSteps, 1, 'one extra grid move is pending for this conversation');
    const next = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages, tools: [] }, limits);
    assert.ok(next.trim.gridMoves >= 1 && next.trim.removed > 0, 'the next request of the conversation was cut');
    assert.strictEqual(engine.states.get(plan.sessionId).extraSteps, 0, 'the extra grid move was used');
    const later = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: [...messages, ...chat('one more')], tools: [] }, limits);
    assert.ok(later.trim.gridMoves >= next.trim.gridMoves && later.trim.removed >= next.trim.removed, 'and the cut does not move back');
  });
});

describe('oversized messages', () => {
  const server = useFakeServer();

  it('sends a message larger than the whole budget truncated with a marker, and logs it', async () => {
    const { engine, log } = engineFor(server().url, { maxInputTokens: 8_000 });
    const huge = `BEGIN ${filler(30_000, 3)} END`;
    const messages = chat('ANCHOR task', 'ok', huge);
    const plan = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages, tools: [] }, { contextWindow: 100_000 });
    const sent = (server().requests.at(-1)!.body as { messages: { content: string }[] }).messages.at(-1)!.content;
    assert.strictEqual(sent, plan.trim.messages.at(-1)?.content, 'the trimmed message is what went out');
    assert.ok(sent.startsWith('BEGIN ') && sent.endsWith(' END'), 'both ends kept');
    assert.match(sent, /\[… \d+ characters removed by the OpenCode extension to fit the model's context window …\]/);
    assert.ok(!plan.trim.overCeiling && plan.trim.estTokens <= 8_000, `now ~${plan.trim.estTokens} tokens`);
    assert.deepStrictEqual(log.messages('error'), [], 'nothing is sent over budget, so no ERROR line');
    assert.ok(log.messages('warn').some((m) => /^\[history-trim\] Truncated a user message \(input #2\) from ~\d+ to ~\d+ tokens/.test(m)));
    assert.strictEqual((messages[2].parts[0] as { text: string }).text, huge, 'the conversation itself is not modified');
  });
});

describe('a long agent turn whose tool results alone exceed the budget', () => {
  function agentTurn(rounds: number) {
    const messages = chat('ANCHOR: refactor the parser', 'ok', 'now run the whole test suite and fix what fails');
    for (let i = 0; i < rounds; i++) {
      messages.push({ role: 'assistant', parts: [{ kind: 'toolCall', callId: `call_${i}`, name: 'run', input: { step: i } }] });
      messages.push({ role: 'user', parts: [{ kind: 'toolResult', callId: `call_${i}`, text: `output ${i}\n${filler(2_500, i)}` }] });
    }
    return messages;
  }

  const server = useFakeServer();

  it('fits the budget by dropping its oldest rounds (prompt and newest rounds kept), not by truncating outputs', async () => {
    const { engine, log } = engineFor(server().url, { maxInputTokens: 30_000 });
    const limits = { contextWindow: 1_000_000 };
    const first = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: agentTurn(20), tools: [] }, limits);
    const second = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: agentTurn(21), tools: [] }, limits);
    for (const plan of [first, second]) assert.ok(!plan.trim.overCeiling && plan.trim.estTokens <= 30_000, `~${plan.trim.estTokens} tokens`);
    const sent = (plan: typeof first) => plan.trim.messages.map((m) => JSON.stringify(m));
    const a = sent(first);
    const b = sent(second);
    assert.ok(first.trim.removed > 0, 'old rounds were dropped');
    assert.ok(a.every((m) => !m.includes('characters removed by the OpenCode extension')), 'no output was truncated');
    assert.ok(a.some((m) => m.includes('now run the whole test suite')), 'the current prompt is always sent');
    assert.ok(a.at(-1)?.includes('output 19') && a.at(-3)?.includes('output 18'), 'the newest rounds are sent');
    if (!second.cutMoved) assert.deepStrictEqual(b.slice(0, a.length), a, 'the cut held: the previous payload is a prefix');
    assert.deepStrictEqual(log.messages('error'), []);
  });
});
