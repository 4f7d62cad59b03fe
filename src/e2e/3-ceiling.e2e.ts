/**
 * A long session against fake-small (8,192-token window): ~30 turns of growing history must push the payload past
 * the window, and the history trim must then drop old messages with a cut that holds still across turns (so the
 * provider's prompt cache keeps hitting) and moves only in steps. Judged from the REAL "OpenCode" log on disk:
 *   [history-trim] Dropped N old message(s) … cut=moved|held      (before a request whose history was trimmed)
 *   [usage] prompt=P completion=C total=T cached=K cacheHit=X.X%   (after every answer)
 */
import * as assert from 'assert';
import { describeTurns, runCeilingSession, TURNS, type Turn } from './ceilingSession';
import { model } from './support';

describe('context ceiling (fake-small, 8,192-token window)', function () {
  this.timeout(300_000);

  it(`trims history with a stable cut over ${TURNS} turns and keeps the cache warm`, async () => {
    const turns = await runCeilingSession(await model('fake-small'));
    console.log(`# turns (dropped/cut cacheHit%): ${describeTurns(turns)}`);

    const trimmed = turns.filter(t => t.dropped !== undefined);
    assert.ok(trimmed.length >= 5, `only ${trimmed.length} turn(s) trimmed; the session never reached the ceiling`);
    assert.ok(turns.some(t => t.cut === 'moved'), 'the cut never moved');

    // Held cut: same number of dropped messages as the turn before; find the longest run of held turns.
    let run = 0;
    let longest = 0;
    for (let i = 1; i < turns.length; i++) {
      const prev: Turn = turns[i - 1];
      const cur: Turn = turns[i];
      if (cur.cut === 'held') {
        assert.ok(prev.dropped !== undefined, `turn ${i + 1}: cut=held but the turn before was not trimmed`);
        assert.strictEqual(cur.dropped, prev.dropped, `turn ${i + 1}: cut=held but the drop count changed`);
        run++;
        longest = Math.max(longest, run);
      } else run = 0;
    }
    assert.ok(longest >= 3, `the cut held for at most ${longest} consecutive turn(s)`);

    // Between cut moves the request prefix is unchanged, so the (simulated) prompt cache must keep hitting.
    const held = turns.filter(t => t.cut === 'held');
    const worst = Math.min(...held.map(t => t.cacheHit));
    assert.ok(worst >= 50, `cacheHit fell to ${worst}% on a turn where the cut held`);
  });
});
