/**
 * Faults before any answer arrives — HTTP errors and a dropped connection — through the provider over
 * real HTTP. Nothing has been shown yet, so transient ones are retried (waits recorded, not slept); what
 * the user finally reads is one sentence, the detail is in the log. Every fault of the fake server is
 * named by a test title somewhere in the suite (checked at the end of this file).
 */
import * as assert from 'assert';
import { FAULT_NAMES } from '../fakeServer';
import { defaultReplyText } from '../fakeServer/replies';
import { ask, user } from './support/activatedExtension';
import { askError, providerWithTiming, type TimedProvider } from './support/providerHarness';
import { useActivated, useFakeServer } from './support/suiteHooks';

describe('faults before the answer (provider, real HTTP)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, providerWithTiming);
  const chats = () => server().requests.filter((r) => r.path.endsWith('/chat/completions'));
  const expected = () => defaultReplyText(chats().at(-1)?.body.messages);
  const errorLines = (of: TimedProvider = ext()) => of.log.lines.filter((l) => l.level === 'error').map((l) => l.message);

  it('status-429 with Retry-After: waits exactly what the server asks, then shows the answer once', async () => {
    server().enqueueFault({ name: 'status-429', seconds: 2 });
    const { text } = await ask(ext(), 'fake-large', [user('rate limited question')]);
    assert.strictEqual(text, expected());
    assert.deepStrictEqual(ext().delays, [2_000]);
    assert.strictEqual(chats().length, 2);
    assert.match(ext().log.text(), /\[warn\] \[retry\] fake-large: 429 Rate limit reached, please retry later \[type=rate_limit_error, code=rate_limit_exceeded\] — nothing was shown yet, so trying again: attempt 2 of 4 in 2000 ms\./);
  });

  it('status-429 asking for longer than the 30 s cap: no retry, the user is told how long to wait', async () => {
    server().enqueueFault({ name: 'status-429', seconds: 120 });
    const error = await askError(ext(), 'fake-large', 'q');
    assert.strictEqual(error.message, 'fake-large is rate-limited (HTTP 429) and the service asks to wait 120 s. Try again after that.');
    assert.deepStrictEqual(ext().delays, []);
    assert.strictEqual(chats().length, 1);
  });

  for (const status of [500, 502, 503] as const) {
    it(`status-${status}: retried with growing backoff while nothing was shown; the answer appears once`, async () => {
      for (let i = 0; i < 3; i++) server().enqueueFault({ name: `status-${status}` });
      const { text } = await ask(ext(), 'fake-large', [user(`server error ${status}`)]);
      assert.strictEqual(text, expected());
      // random() = 0.5 in the harness: half of each doubling step plus half the jitter range.
      assert.deepStrictEqual(ext().delays, [375, 750, 1_500]);
      assert.strictEqual(chats().length, 4);
    });
  }

  it('status-503 on every attempt: one sentence for the user after maxRetries, the detail in the log', async () => {
    for (let i = 0; i < 4; i++) server().enqueueFault({ name: 'status-503' });
    const error = await askError(ext(), 'fake-large', 'q');
    assert.strictEqual(error.message, 'The model service had an error (HTTP 503). Try again in a moment.');
    assert.strictEqual(chats().length, 4);
    assert.deepStrictEqual(errorLines(), ['[error] fake-large: The model service had an error (HTTP 503). Try again in a moment. (503 Service unavailable [type=server_error])']);
  });

  it('reset-before-first-byte: retried, the user sees the answer once; without retries a network sentence', async () => {
    server().enqueueFault({ name: 'reset-before-first-byte' });
    const { text } = await ask(ext(), 'fake-large', [user('reset once')]);
    assert.strictEqual(text, expected());
    assert.strictEqual(chats().length, 2);

    ext().dispose();
    const noRetries = providerWithTiming(server(), { maxRetries: 0 });
    try {
      server().enqueueFault({ name: 'reset-before-first-byte' });
      const error = await askError(noRetries, 'fake-large', 'reset again');
      assert.strictEqual(error.message, `Could not reach ${server().url}. Check your network connection or the opencode.baseUrl setting, then try again.`);
      assert.match(errorLines(noRetries)[0], /\(Connection error\. \(cause: fetch failed ← other side closed\)\)$/);
    } finally {
      noRetries.dispose();
    }
  });

  it('status-401: says the key was rejected and how to set one; not retried', async () => {
    server().enqueueFault({ name: 'status-401' });
    const error = await askError(ext(), 'fake-large', 'q');
    assert.strictEqual(error.message, `${server().url} rejected the API key (HTTP 401). Run the command "OpenCode: Set API Key" (or set the OPENCODE_API_KEY environment variable).`);
    assert.strictEqual(chats().length, 1);
    assert.match(errorLines()[0], /\(401 Invalid API key \[type=authentication_error\]\)$/);
  });

  it('unsupported-param-400: drops the parameter the model refuses for that model from now on, retries at once, never shows the 400', async () => {
    server().enqueueFault({ name: 'unsupported-param-400', param: 'temperature' });
    const { text } = await ask(ext(), 'fake-large', [user('be creative')], { modelOptions: { temperature: 0.9 } });
    assert.strictEqual(text, expected());
    const [refused, retried] = chats().map((r) => r.body);
    assert.strictEqual(refused.temperature, 0.9);
    assert.ok(!('temperature' in retried), 'the retry was sent without it');
    assert.deepStrictEqual(ext().delays, [], 'no backoff: the request was wrong, not the service');
    assert.match(ext().log.text(), /\[warn\] \[request\] fake-large does not accept "temperature"; sending without it from now on\./);
    await ask(ext(), 'fake-large', [user('again')], { modelOptions: { temperature: 0.9 } });
    assert.ok(!('temperature' in chats().at(-1)!.body), 'remembered for the next request');
  });

  it('unsupported-param-400 for stream_options: answers without usage rather than failing', async () => {
    server().enqueueFault({ name: 'unsupported-param-400', param: 'stream_options' });
    const { text } = await ask(ext(), 'fake-large', [user('q')]);
    assert.strictEqual(text, expected());
    assert.ok(!('stream_options' in chats().at(-1)!.body));
  });

  it('missing-session-400: a 400 is never retried and reaches the user with the server\'s reason', async () => {
    server().enqueueFault({ name: 'missing-session-400' });
    const error = await askError(ext(), 'fake-large', 'q');
    assert.strictEqual(error.message, 'fake-large refused the request (HTTP 400): MissingSessionID: the x-opencode-session header is required');
    assert.strictEqual(chats().length, 1);
  });

  it('context-length-400 carrying the real limit: learned, re-trimmed and retried once (safetyNet.test.ts has the full case)', async () => {
    server().enqueueFault({ name: 'context-length-400', limit: 50_000 });
    const { text } = await ask(ext(), 'fake-large', [user('long enough')]);
    assert.strictEqual(text, expected());
    assert.strictEqual(ext().engine.learned.get('fake-large')?.window, 50_000);
    assert.deepStrictEqual(ext().delays, [], 'the context retry does not wait');
  });

  it('names every fault of the fake server in some test title', function () {
    // A parallel run (`npm run test:quick`) gives each file its own process: the other files' titles are not here.
    if (process.env.MOCHA_WORKER_ID !== undefined) this.skip();
    const titles: string[] = [];
    const collect = (suite: Mocha.Suite): void => {
      titles.push(...suite.tests.map((t) => t.title));
      suite.suites.forEach(collect);
    };
    let root = this.test!.parent!;
    while (root.parent) root = root.parent;
    collect(root);
    const unnamed = FAULT_NAMES.filter((name) => !titles.some((title) => title.includes(name)));
    assert.deepStrictEqual(unnamed, []);
  });
});
