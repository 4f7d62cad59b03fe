/**
 * A long session against fake-small (8,192-token window): ~30 turns of growing history must push the payload past
 * the window, and the history trim must then drop old messages with a cut that holds still across turns (so the
 * provider's prompt cache keeps hitting) and moves only in steps. Judged from the REAL "OpenCode" log on disk:
 *   [history-trim] Dropped N old message(s) … cut=moved|held      (before a request whose history was trimmed)
 *   [usage] prompt=P completion=C total=T cached=K cacheHit=X.X%   (after every answer)
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, enqueueReply, model, openCodeLogFile, readLog, resetFake, waitFor } from './support';

const TURNS = 30;

interface Turn {
  dropped?: number;
  cut?: 'moved' | 'held';
  prompt: number;
  cacheHit: number;
}

const WORDS = 'apple river stone cloud maple orbit lantern harbor violet meadow copper signal'.split(' ');

/** Filler of about `tokens` o200k tokens (these words are one token each), different for every `seed`. */
function filler(seed: number, tokens: number): string {
  return Array.from({ length: tokens }, (_, i) => WORDS[(i * 7 + seed) % WORDS.length]).join(' ');
}

/** Pairs every [usage] line with the [history-trim] line (if any) logged since the previous answer. */
function parseTurns(log: string): Turn[] {
  const turns: Turn[] = [];
  let trim: Pick<Turn, 'dropped' | 'cut'> = {};
  for (const line of log.split('\n')) {
    const t = /\[history-trim\] Dropped (\d+) old message.*cut=(moved|held)/.exec(line);
    if (t) trim = { dropped: Number(t[1]), cut: t[2] as Turn['cut'] };
    const u = /\[usage\] prompt=(\d+) .*cacheHit=([\d.]+)%/.exec(line);
    if (u) {
      turns.push({ ...trim, prompt: Number(u[1]), cacheHit: Number(u[2]) });
      trim = {};
    }
  }
  return turns;
}

describe('context ceiling (fake-small, 8,192-token window)', function () {
  this.timeout(300_000);

  it(`trims history with a stable cut over ${TURNS} turns and keeps the cache warm`, async () => {
    await resetFake();
    const chat = await model('fake-small');
    const startFile = openCodeLogFile();
    const offset = startFile ? readLog(startFile).length : 0;

    // Turn 1 brings a ~3,500-token document, later turns add ~180 tokens each, so the payload reaches the
    // ~6,100-token budget around turn 15 and the trim then works for the remaining turns. A cut move frees a
    // "grid" of up to 20% of the budget (~1,200 tokens), which lasts several turns at this growth.
    const history: vscode.LanguageModelChatMessage[] = [];
    for (let i = 1; i <= TURNS; i++) {
      const size = i === 1 ? 3500 : 120;
      history.push(vscode.LanguageModelChatMessage.User(`Turn ${i}. ${filler(i, size)}`));
      const reply = `Answer ${i}. ${filler(i + 5, 40)}`;
      await enqueueReply({ text: reply, chunkSize: 400 });
      const answer = await ask(chat, history);
      assert.strictEqual(answer, reply, `turn ${i}: wrong answer`);
      history.push(vscode.LanguageModelChatMessage.Assistant(answer));
    }

    // The channel is flushed asynchronously: wait until every turn's [usage] line is on disk.
    const turns = await waitFor(() => {
      const file = openCodeLogFile();
      if (!file) return undefined;
      const text = readLog(file).slice(file === startFile ? offset : 0);
      const parsed = parseTurns(text);
      return parsed.length >= TURNS ? parsed : undefined;
    }, 20_000, 250);
    assert.ok(turns, `fewer than ${TURNS} [usage] lines in ${openCodeLogFile()}`);
    console.log(`# turns (dropped/cut cacheHit%): ${turns.map((t, i) => `${i + 1}:${t.dropped ?? '-'}/${t.cut ?? '-'} ${t.cacheHit}`).join(' | ')}`);

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
