/**
 * A long session that reaches the context ceiling, for the real-VS-Code ceiling tests: ~30 turns of growing
 * history (turn 1 brings a ~3,500-token document, later turns ~180 tokens each), judged from the REAL
 * "OpenCode" log on disk:
 *   [history-trim] Dropped N old message(s) … cut=moved|held      (before a request whose history was trimmed)
 *   [usage] prompt=P completion=C total=T cached=K cacheHit=X.X%   (after every answer)
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, enqueueReply, openCodeLogFile, readLog, resetFake, waitFor } from './support';

export const TURNS = 30;

export interface Turn {
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
export function parseTurns(log: string): Turn[] {
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

/** Runs the session on `chat` and returns one Turn per answer, read from the log written meanwhile. */
export async function runCeilingSession(chat: vscode.LanguageModelChat): Promise<Turn[]> {
  await resetFake();
  const startFile = openCodeLogFile();
  const offset = startFile ? readLog(startFile).length : 0;
  const history: vscode.LanguageModelChatMessage[] = [];
  for (let i = 1; i <= TURNS; i++) {
    history.push(vscode.LanguageModelChatMessage.User(`Turn ${i}. ${filler(i, i === 1 ? 3500 : 120)}`));
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
    const parsed = parseTurns(readLog(file).slice(file === startFile ? offset : 0));
    return parsed.length >= TURNS ? parsed : undefined;
  }, 20_000, 250);
  assert.ok(turns, `fewer than ${TURNS} [usage] lines in ${openCodeLogFile()}`);
  return turns;
}

export function describeTurns(turns: readonly Turn[]): string {
  return turns.map((t, i) => `${i + 1}:${t.dropped ?? '-'}/${t.cut ?? '-'} ${t.cacheHit}`).join(' | ');
}
