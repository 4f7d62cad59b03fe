/**
 * Where an answer ends, over real HTTP against the fake server: `[DONE]` ends the
 * read even when the server holds the connection or resets it afterwards; after a finish reason and usage the
 * wait is short; usage that arrived is never dropped, also when the stream then breaks; a 200 JSON body is an
 * answer or an error; a [retry] line never carries a whole HTML page.
 */
import * as assert from 'assert';
import { RETRY_DETAIL_MAX } from '../core/util/excerpt';
import { startFakeServer, type FaultSpec } from '../fakeServer';
import { defaultReplyText } from '../fakeServer/replies';
import { chat, engineFor, runOnce, runSettled } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { AFTER_USAGE_MS } from '../core/stream/answerStream';

/** Long enough that waiting for it fails the test (mocha's timeout is 20 s); the answers must not wait it. */
const IDLE_MS = 15_000;

describe('where the answer ends (engine, real HTTP)', () => {
  const server = useFakeServer();
  const chats = () => server().requests.filter((r) => r.path.endsWith('/chat/completions'));
  const expected = () => defaultReplyText(chats().at(-1)?.body.messages);

  async function ask(fault: FaultSpec | undefined, overrides: Record<string, unknown> = {}) {
    if (fault) server().enqueueFault(fault);
    const { engine, log } = engineFor(server().url, { maxRetries: 1, ...overrides }, undefined, { idleTimeoutMs: IDLE_MS, sleep: async () => undefined });
    const started = Date.now();
    const result = await runOnce(engine, 'fake-large', chat('where does it end?'));
    const lines = (level: string) => log.lines.filter((l) => l.level === level).map((l) => l.message);
    return { ...result, ms: Date.now() - started, lines, log };
  }

  it('hold-after-done: the answer is over at [DONE]; the request is closed at once, not after the idle timeout', async () => {
    const { text, outcome, lines } = await ask({ name: 'hold-after-done', ms: 60_000 });
    // No clock: waiting for the held connection would end in the idle timeout (15 s), with its WARN.
    assert.deepStrictEqual(lines('warn'), []);
    assert.strictEqual(text, expected());
    assert.strictEqual(outcome.truncated, false);
    assert.ok(outcome.usage && outcome.usage.contextTokens > 0);
    assert.strictEqual(lines('info').filter((l) => l.startsWith('[usage]')).length, 1);
    await server().whenRequestClosed(server().requests.indexOf(chats()[0]));
    assert.ok(chats()[0].closedEarly, 'the client closed the held connection itself');
  });

  it('reset-after-done: a reset after [DONE] neither marks the answer incomplete nor drops its usage', async () => {
    const { text, outcome, lines } = await ask({ name: 'reset-after-done' });
    assert.strictEqual(text, expected());
    assert.strictEqual(outcome.truncated, false);
    assert.ok(outcome.usage, 'usage kept');
    assert.deepStrictEqual(lines('warn'), []);
    assert.strictEqual(chats().length, 1, 'no retry');
  });

  it('hold-after-usage: finish reason and usage but no [DONE], connection held: ends after a short wait, complete', async () => {
    const { text, outcome, ms, lines } = await ask({ name: 'hold-after-usage', ms: 60_000 });
    // The short wait, not the idle timeout: bounded by half the idle timeout so a loaded machine cannot fail it.
    assert.ok(ms >= AFTER_USAGE_MS && ms < IDLE_MS / 2, `answered in ${ms} ms`);
    assert.strictEqual(text, expected());
    assert.strictEqual(outcome.truncated, false);
    assert.ok(outcome.usage);
    assert.deepStrictEqual(lines('warn'), [], 'a finish reason makes it complete: no "may be incomplete" line');
  });

  it('reset-after-usage: finish reason and usage, then a reset instead of [DONE]: complete, usage kept', async () => {
    const { text, outcome, lines } = await ask({ name: 'reset-after-usage' });
    assert.strictEqual(text, expected());
    assert.strictEqual(outcome.truncated, false);
    assert.ok(outcome.usage);
    assert.deepStrictEqual(lines('warn'), []);
  });

  it('usage-then-cut: usage sent early, then the connection breaks after text: the text is kept, the run fails, the usage is accounted', async () => {
    server().enqueueFault({ name: 'usage-then-cut', afterChunks: 3 });
    const { engine, log } = engineFor(server().url, { maxRetries: 1 }, undefined, { idleTimeoutMs: IDLE_MS, sleep: async () => undefined });
    const { text, error } = await runSettled(engine, 'fake-large', chat('where does it end?'));
    const lines = (level: string) => log.lines.filter((l) => l.level === level).map((l) => l.message);
    assert.strictEqual(text, expected().slice(0, 24));
    assert.match(String(error?.message), /^The answer from fake-large was cut off: the connection broke\./);
    assert.strictEqual(lines('info').filter((l) => l.startsWith('[usage]')).length, 1, 'the usage that arrived is accounted');
    assert.deepStrictEqual(lines('warn'), ["[stream] The connection broke in the middle of fake-large's answer (terminated: other side closed). The answer is incomplete: kept what arrived."]);
  });

  it('usage-then-cut after only thinking: the answer fails, but the usage that arrived is accounted ([usage] line)', async () => {
    server().enqueueFault({ name: 'usage-then-cut', afterChunks: 3, thinking: true });
    const { engine, log } = engineFor(server().url, { maxRetries: 2 }, undefined, { idleTimeoutMs: IDLE_MS, sleep: async () => undefined });
    await assert.rejects(runOnce(engine, 'fake-large', chat('think, then break')));
    assert.strictEqual(chats().length, 1, 'thinking was shown: no retry');
    const usage = log.lines.filter((l) => l.level === 'info' && l.message.startsWith('[usage]'));
    assert.strictEqual(usage.length, 1, 'one [usage] line');
  });

  it('empty answer with usage: EmptyAnswerError, and each attempt\'s usage is accounted once', async () => {
    server().enqueueReply({ text: '' });
    server().enqueueReply({ text: '' });
    const { engine, log } = engineFor(server().url, { maxRetries: 1 }, undefined, { idleTimeoutMs: IDLE_MS, sleep: async () => undefined });
    await assert.rejects(runOnce(engine, 'fake-large', chat('say nothing')), /empty/i);
    assert.strictEqual(chats().length, 2, 'retried once');
    assert.strictEqual(log.lines.filter((l) => l.level === 'info' && l.message.startsWith('[usage]')).length, 2, 'one [usage] line per attempt');
  });

  it('split-usage: a trailing usage frame with only the output count merges (the context is not reset to 0)', async () => {
    for (const usageShape of ['openai', 'anthropic'] as const) {
      const own = await startFakeServer({ usageShape });
      try {
        const { engine } = engineFor(own.url, { maxRetries: 0 });
        const whole = (await runOnce(engine, 'fake-large', chat('where does it end?'))).outcome.usage;
        own.reset();
        own.enqueueFault({ name: 'split-usage' });
        const split = (await runOnce(engine, 'fake-large', chat('where does it end?'))).outcome.usage;
        assert.ok(whole && split && whole.contextTokens > 0, usageShape);
        assert.deepStrictEqual([split.contextTokens, split.completionTokens], [whole.contextTokens, whole.completionTokens], usageShape);
      } finally {
        await own.close();
      }
    }
  });

  it('json-completion: a 200 JSON completion instead of a stream is the answer (it was an empty answer, twice)', async () => {
    const { text, outcome, lines } = await ask({ name: 'json-completion' });
    assert.strictEqual(text, expected());
    assert.strictEqual(chats().length, 1);
    assert.strictEqual(outcome.truncated, false);
    assert.ok(outcome.usage && outcome.usage.contextTokens > 0);
    assert.deepStrictEqual(lines('warn'), []);
  });

  it('json-completion with a tool call: the call arrives whole, with its id', async () => {
    server().enqueueFault({ name: 'json-completion' });
    server().enqueueReply({ toolCalls: [{ id: 'call_json', name: 'read_file', arguments: '{"path":"a.ts"}' }] });
    const { engine } = engineFor(server().url);
    const { events } = await runOnce(engine, 'fake-large', chat('read it'));
    assert.deepStrictEqual(events.filter((e) => e.kind === 'toolCall'), [{ kind: 'toolCall', callId: 'call_json', name: 'read_file', input: { path: 'a.ts' } }]);
  });

  it("json-error-200: a 200 JSON error body is that error, with the gateway's message, any key in it redacted", async () => {
    server().enqueueFault({ name: 'json-error-200' });
    const { engine, log } = engineFor(server().url, { maxRetries: 1 });
    await assert.rejects(runOnce(engine, 'fake-large', chat('fail please')), (error: Error) => {
      assert.match(error.message, /^The request to fake-large failed: Upstream provider rejected the request made with key sk-\[redacted\]/);
      return true;
    });
    assert.ok(!log.lines.some((l) => l.message.includes('0123456789abcdef')), 'the key is in no log line');
    assert.strictEqual(chats().length, 1, 'an error the gateway stated is not an empty answer to retry');
  });

  it('html-502: the [retry] line carries a short excerpt of the HTML error page, not the page', async () => {
    const { text, lines } = await ask({ name: 'html-502' });
    assert.strictEqual(text, expected(), 'the retry answered');
    const retry = lines('warn').find((l) => l.startsWith('[retry]'));
    assert.ok(retry, 'a [retry] line');
    assert.ok(retry.length < RETRY_DETAIL_MAX + 250, `${retry.length} characters: ${retry}`);
    assert.match(retry, /502 Bad Gateway/);
    assert.doesNotMatch(retry, /<p>|<html|\n/);
  });
});
