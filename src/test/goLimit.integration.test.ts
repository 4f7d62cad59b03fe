/**
 * The Go usage-limit sentence (provider.ts `explainLimit`): a request refused for quota or rate, with the
 * base URL in OpenCode Go's shape and a key set, gets the window that is full and its reset time appended —
 * read from the fake server's Go usage route over real HTTP, through the activated extension. Without a
 * full window, an unknown usage answer or a non-Go base URL, the message stays as it was.
 */
import * as assert from 'assert';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user, type ActivatedExtension } from './support/activatedExtension';
import { startGoGateway, type GoGateway } from './support/goGateway';
import { useFakeServer } from './support/suiteHooks';

const KEY = 'sk-go-LIMITKEY-0123456789';
const RESET = '2026-12-24T18:30:00.000Z';
const HOUR = 3_600_000;

const usage = (rolling: object, weekly: object) => ({
  usage: { rolling, weekly, monthly: { status: 'ok', percent: 30, resetsAt: new Date(Date.now() + 400 * HOUR).toISOString() } },
});

describe('Go usage limit sentence on a refused request (activated extension)', () => {
  const server = useFakeServer();
  let gateway: GoGateway;
  let ext: ActivatedExtension | undefined;
  before(async () => {
    gateway = await startGoGateway(server().url);
  });
  after(() => gateway.close());
  afterEach(() => {
    ext?.dispose();
    ext = undefined;
    double.settingsStore.clear();
  });

  async function setUsage(answer: object): Promise<void> {
    const res = await fetch(`${server().url.replace(/\/v1$/, '')}/_control/go-usage`, { method: 'POST', body: JSON.stringify(answer) });
    assert.strictEqual(res.status, 200);
  }

  async function activateWithKey(baseUrl: string): Promise<ActivatedExtension> {
    const activated = activateAgainst({ url: baseUrl }, { maxRetries: 0 });
    await activated.context.secrets.store('opencode.apiKey', KEY);
    return activated;
  }

  async function refusal(activated: ActivatedExtension): Promise<string> {
    try {
      await ask(activated, 'fake-large', [user('hello')]);
    } catch (error) {
      return (error as Error).message;
    }
    assert.fail('the request should have been refused');
  }

  it('a rate limit (429) names the rate-limited window and when it resets', async () => {
    await setUsage({ status: 200, body: usage({ status: 'rate-limited', percent: 100, resetsAt: RESET }, { status: 'ok', percent: 41, resetsAt: RESET }) });
    server().enqueueFault({ name: 'status-429' });
    ext = await activateWithKey(gateway.url);
    const message = await refusal(ext);
    assert.ok(message.endsWith(' Your OpenCode Go rolling usage limit is reached (100%); it resets 2026-12-24 18:30 UTC.'), message);
    assert.ok(ext.log.text().includes('Your OpenCode Go rolling usage limit is reached (100%); it resets 2026-12-24 18:30 UTC.'), 'the [error] line carries it too');
    assert.ok(!ext.log.text().includes('LIMITKEY'), 'the key is never logged');
  });

  it('no quota left (402 from the gateway) names the full window, the weekly one here', async () => {
    await setUsage({ status: 200, body: usage({ status: 'ok', percent: 63, resetsAt: RESET }, { status: 'ok', percent: 100, resetsAt: '2026-12-28T00:00:00Z' }) });
    gateway.refuseNext(402, { error: { message: 'Insufficient balance: usage limit reached', type: 'insufficient_quota' } });
    ext = await activateWithKey(gateway.url);
    const message = await refusal(ext);
    // A 402 is classified as OpenCode's credits error (openCodeError.ts); the Go window sentence is appended to it.
    assert.match(message, /^Your OpenCode balance is used up\. .* Your OpenCode Go weekly usage limit is reached \(100%\); it resets 2026-12-28 00:00 UTC\.$/);
  });

  it('no sentence when no window is full, when the usage answer is unusable, or when the base URL is not OpenCode Go', async () => {
    await setUsage({ status: 200, body: usage({ status: 'ok', percent: 20, resetsAt: RESET }, { status: 'ok', percent: 41, resetsAt: RESET }) });
    server().enqueueFault({ name: 'status-429' });
    ext = await activateWithKey(gateway.url);
    const plain = await refusal(ext);
    assert.ok(!plain.includes('OpenCode Go'), plain);
    ext.dispose();

    await setUsage({ status: 200, raw: 'not json {' });
    server().enqueueFault({ name: 'status-429' });
    ext = await activateWithKey(gateway.url);
    assert.strictEqual(await refusal(ext), plain);
    assert.match(ext.log.text(), /\[warn\] \[quota\] OpenCode Go usage unknown: .*not JSON/);
    ext.dispose();

    await setUsage({ status: 200, body: usage({ status: 'rate-limited', percent: 100, resetsAt: RESET }, { status: 'ok', percent: 41, resetsAt: RESET }) });
    server().enqueueFault({ name: 'status-429' });
    ext = await activateWithKey(server().url);
    assert.strictEqual(await refusal(ext), plain, 'a /v1 base URL is not OpenCode Go: the usage route is not asked');
  });
});
