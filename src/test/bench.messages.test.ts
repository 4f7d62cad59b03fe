/** The bench's Messages regime: our breakpoints against the first 4 blocks on the same (short) ceiling session. */
import * as assert from 'assert';
import { cost, markFirstFour, MESSAGES_REGIME, READ_PRICE, runMessagesRegime, WRITE_PRICE } from '../bench/messages/messagesRegime';

describe('bench: Messages regime (breakpoints)', () => {
  it('our breakpoints read what the previous request wrote; the first 4 blocks cache only the head and cost more', () => {
    const result = runMessagesRegime({ ...MESSAGES_REGIME, requests: 25, budgetTokens: 40_000, window: 60_000, maxOutputTokens: 8_000, toolTokens: 4_000, systemTokens: 2_000, toolCount: 8 });
    const [ours, first4] = result.variants;
    assert.strictEqual(ours.requests.length, 25);
    // Between cut moves every request reads all the previous one sent (its prompt minus the newest growth).
    const steady = ours.requests.slice(1).filter((r) => r.hit > 0.5);
    assert.ok(steady.length >= 20, `steady requests ${steady.length}`);
    assert.ok(steady.every((r) => r.uncached === 0), 'our newest-block breakpoint leaves nothing uncached');
    assert.ok(ours.totals.meanHit > first4.totals.meanHit + 0.3, `ours ${ours.totals.meanHit} vs first-4 ${first4.totals.meanHit}`);
    assert.ok(ours.totals.relativeCost < first4.totals.relativeCost);
    for (const v of result.variants) {
      const t = v.totals;
      assert.strictEqual(t.read + t.write + t.uncached, t.prompt, 'every token is billed exactly once');
      assert.ok(Math.abs(t.relativeCost - cost(t.uncached, t.read, t.write) / t.prompt) < 1e-12);
    }
    assert.deepStrictEqual([WRITE_PRICE, READ_PRICE], [1.25, 0.1]);
  });

  it('markFirstFour moves every marker to the first 4 system/message blocks', () => {
    const body = {
      tools: [{ name: 't', cache_control: { type: 'ephemeral' } }],
      system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }],
      messages: [1, 2, 3, 4].map((n) => ({ role: n % 2 ? 'user' : 'assistant', content: [{ type: 'text', text: `m${n}` }, { type: 'text', text: `n${n}`, cache_control: { type: 'ephemeral' } }] })),
    };
    const marked = markFirstFour(body);
    const flags = [...(marked.system as object[]), ...marked.messages.flatMap((m) => m.content as object[])].map((b) => 'cache_control' in b);
    assert.deepStrictEqual(flags, [true, true, true, true, false, false, false, false, false]);
    assert.ok(!('cache_control' in (marked.tools![0] as object)));
  });
});
