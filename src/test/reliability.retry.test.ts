/**
 * Retry policy: backoff with jitter, Retry-After within a cap, which failures are retried, and that a
 * cancellation ends every wait at once. The pure parts are tested directly; cancellation goes through
 * the real activation (real sleeps) over HTTP.
 */
import * as assert from 'assert';
import { APIConnectionError, APIError } from 'openai';
import { failureClass, MAX_DELAY_MS, nextRetryDelayMs, retryAfterMs, retryDelayMs, sleep } from '../core/request/retryPolicy';
import { EmptyAnswerError, StreamIdleTimeoutError, StreamInterruptedError } from '../core/request/streamErrors';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { askError, providerWithTiming } from './support/providerHarness';
import { useActivated, useFakeServer } from './support/suiteHooks';
import { ToolCallArgumentsError } from '../core/answer/toolCalls';

const apiError = (status: number, message: string, headers: Record<string, string> = {}) =>
  new APIError(status, { message }, `${status} ${message}`, new Headers(headers));

describe('retry policy (pure)', () => {
  it('backs off exponentially with jitter in the upper half of each step, capped at MAX_DELAY_MS', () => {
    const error = apiError(503, 'Service unavailable');
    assert.deepStrictEqual([1, 2, 3, 4].map((attempt) => retryDelayMs(error, attempt, () => 0)), [250, 500, 1_000, 2_000]);
    assert.deepStrictEqual([1, 2, 3, 4].map((attempt) => retryDelayMs(error, attempt, () => 0.999_999)), [500, 1_000, 2_000, 4_000]);
    assert.strictEqual(retryDelayMs(error, 10, () => 1), MAX_DELAY_MS);
  });

  it('honours Retry-After (seconds, milliseconds, HTTP date) and refuses waits over 30 s', () => {
    assert.strictEqual(retryAfterMs(apiError(429, 'slow down', { 'retry-after': '3' })), 3_000);
    assert.strictEqual(retryAfterMs(apiError(429, 'slow down', { 'retry-after-ms': '1500' })), 1_500);
    const inTenSeconds = new Date(Date.now() + 10_500).toUTCString();
    const fromDate = retryAfterMs(apiError(429, 'slow down', { 'retry-after': inTenSeconds }))!;
    assert.ok(fromDate > 8_000 && fromDate <= 10_500, String(fromDate));
    assert.strictEqual(retryDelayMs(apiError(429, 'slow down', { 'retry-after': '3' }), 1, () => 0.5), 3_000, 'Retry-After wins over backoff');
    assert.strictEqual(retryDelayMs(apiError(429, 'slow down', { 'retry-after': '31' }), 1), undefined);
  });

  it('retries transient failures and bad answers, never key, quota, model, request errors or a stall', () => {
    const cases: [unknown, string][] = [
      [new APIConnectionError({ message: 'Connection error.' }), 'transient'],
      [StreamInterruptedError.from(new Error('terminated')), 'transient'],
      [apiError(429, 'Rate limit reached'), 'transient'],
      [apiError(502, 'Bad gateway'), 'transient'],
      [new EmptyAnswerError('stop', true), 'bad-answer'],
      [new ToolCallArgumentsError('edit', '{"a":'), 'bad-answer'],
      [new EmptyAnswerError('length', true), 'final'],
      [apiError(429, 'You exceeded your current quota, please check your plan and billing details'), 'final'],
      [apiError(402, 'Payment required'), 'final'],
      [apiError(401, 'Invalid API key'), 'final'],
      [apiError(404, 'The model `x` does not exist'), 'final'],
      [apiError(400, 'Bad request'), 'final'],
      [new StreamIdleTimeoutError(120_000), 'final'],
    ];
    assert.deepStrictEqual(cases.map(([error]) => failureClass(error)), cases.map(([, kind]) => kind));
  });

  it('stops at maxRetries, and retries a bad answer only once', () => {
    const transient = apiError(503, 'Service unavailable');
    assert.ok(nextRetryDelayMs(transient, { attempt: 3, maxRetries: 3, badAnswerRetries: 0 }) !== undefined);
    assert.strictEqual(nextRetryDelayMs(transient, { attempt: 4, maxRetries: 3, badAnswerRetries: 0 }), undefined);
    assert.strictEqual(nextRetryDelayMs(transient, { attempt: 1, maxRetries: 0, badAnswerRetries: 0 }), undefined);
    const empty = new EmptyAnswerError(undefined, true);
    assert.ok(nextRetryDelayMs(empty, { attempt: 1, maxRetries: 3, badAnswerRetries: 0 }) !== undefined);
    assert.strictEqual(nextRetryDelayMs(empty, { attempt: 2, maxRetries: 3, badAnswerRetries: 1 }), undefined);
  });

  it('sleep rejects as soon as the signal fires (before the event loop turns again), and at once if it already had', async () => {
    const outcome = (waiting: Promise<void>) => Promise.race([waiting.then(() => 'slept', (e: Error) => e.name), new Promise((resolve) => setImmediate(() => resolve('still waiting')))]);
    const controller = new AbortController();
    const waiting = outcome(sleep(60_000, controller.signal));
    controller.abort();
    assert.strictEqual(await waiting, 'AbortError');
    assert.strictEqual(await outcome(sleep(60_000, controller.signal)), 'AbortError', 'an aborted signal never starts the wait');
  });
});

describe('retries and cancellation through the provider (real waits)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, activateAgainst);
  const chats = () => server().requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('cancelling during a Retry-After wait returns at once, quietly, without another request', async () => {
    // The wait is the engine's own sleep, started when the 429 arrives; it ends only when the request is
    // cancelled, so the answer returning at all proves the cancellation ended it (no clock involved).
    ext().dispose();
    let waitStarted: (ms: number) => void = () => undefined;
    const started = new Promise<number>((resolve) => (waitStarted = resolve));
    const waitingExt = providerWithTiming(server(), {}, { sleep: (ms, signal) => (waitStarted(ms), sleep(60_000, signal)) });
    try {
      server().enqueueFault({ name: 'status-429', seconds: 25 });
      const source = new double.CancellationTokenSource();
      const pending = ask(waitingExt, 'fake-large', [user('wait for me')], {}, source.token as never);
      assert.strictEqual(await started, 25_000, 'the Retry-After wait');
      source.cancel();
      const { parts } = await pending;
      assert.deepStrictEqual(parts, []);
      assert.strictEqual(chats().length, 1);
      assert.deepStrictEqual(waitingExt.log.lines.filter((l) => l.level === 'error'), [], 'a cancellation is not an error');
    } finally {
      waitingExt.dispose();
    }
  });

  it('cancelling in the middle of a tool call returns quietly: no half tool call, no error', async () => {
    const args = JSON.stringify({ path: 'src/extension.ts', content: 'x'.repeat(600) });
    server().enqueueReply({ text: 'Ok. ', toolCalls: [{ id: 'call_long', name: 'write_file', arguments: args }], chunkSize: 4, delayMsBetweenChunks: 15 });
    const source = new double.CancellationTokenSource();
    const { parts } = await ask(ext(), 'fake-large', [user('write it')], {}, source.token as never, () => setTimeout(() => source.cancel(), 150));
    assert.deepStrictEqual(parts.filter((p) => p instanceof double.LanguageModelToolCallPart), []);
    assert.deepStrictEqual(ext().log.lines.filter((l) => l.level === 'error'), []);
    const index = server().requests.indexOf(chats()[0]);
    await server().whenRequestClosed(index);
    assert.ok(server().requests[index].closedEarly, 'the HTTP request was aborted');
  });

  it('after only thinking was shown, a stall ends in a clear error instead of an empty answer (no retry: the thinking would repeat)', async () => {
    const timed = providerWithTiming(server(), {}, { idleTimeoutMs: 1_000 });
    try {
      server().enqueueFault({ name: 'stall', ms: 30_000 });
      server().enqueueReply({ reasoning: 'Let me think about this carefully.', text: 'Answer.' });
      const error = await askError(timed, 'fake-large', 'hard question');
      assert.strictEqual(error.message, 'fake-large sent nothing for 1 s, so the request was stopped. Try again, or raise opencode.streamIdleTimeoutSeconds for slow models.');
      assert.strictEqual(chats().length, 1);
    } finally {
      timed.dispose();
    }
  });
});
