import * as assert from 'assert';
import * as fc from 'fast-check';
import { retryAfterMsOf } from '../core/util/retryAfter';
import { classifyOpenCodeError } from '../core/routes/select/openCodeErrors';

describe('Retry-After: one reader for the retry policy and the Go usage limit', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');

  it('reads whole and fractional seconds, an HTTP date and retry-after-ms (which wins)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 86_400 }), (s) => {
      assert.strictEqual(retryAfterMsOf(String(s), undefined, now), s * 1000);
      assert.strictEqual(retryAfterMsOf(new Date(now + s * 1000).toUTCString(), undefined, now), s * 1000);
      assert.strictEqual(retryAfterMsOf('999', String(s), now), s);
    }));
    assert.strictEqual(retryAfterMsOf('1.5', undefined, now), 1500);
    assert.strictEqual(retryAfterMsOf(new Date(now - 60_000).toUTCString(), undefined, now), 0, 'a date in the past: no wait');
  });

  it('says nothing for an empty or unreadable header', () => {
    for (const raw of [undefined, null, '', '  ', 'soon', 'NaN']) assert.strictEqual(retryAfterMsOf(raw, undefined, now), undefined, String(raw));
  });

  it('the usage-limit error says when the window resets from an HTTP-date Retry-After too', () => {
    const inTwoHours = new Date(Date.now() + 2 * 3600_000).toUTCString();
    const limit = classifyOpenCodeError(429, { type: 'GoUsageLimitError', message: 'Weekly usage limit reached.' }, inTwoHours);
    assert.strictEqual(limit?.kind, 'usage-limit');
    assert.match(limit!.message, /resets in (1 h 59 min|2 h)/, limit!.message);
  });
});
