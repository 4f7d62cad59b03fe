/** The replay tool: JSONL in, the extension's trim path, lines or JSON out; and the request recorder feeding it. */
import * as assert from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RequestRecording } from '../core/replay/requestRecording';
import type { SentRecord } from '../core/replay/sentRecord';
import type { WireMessage } from '../core/wire/wireTypes';
import { parseReplayLines } from '../core/replay/replayFile';
import { filler } from './support/trimHarness';

const REPLAY = path.join(__dirname, '..', 'tools', 'replay.js');

/** A recorded session: one whole request, then appends of one assistant answer and one user turn each. */
function writeSession(file: string, turns: number, sent?: SentRecord): void {
  const recording = new RequestRecording();
  const messages: WireMessage[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'ANCHOR task' }];
  const tools = [{ type: 'function' as const, function: { name: 'read', description: 'read a file', parameters: { type: 'object' } } }];
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: `answer ${i} ${filler(250, i)}` }, { role: 'user', content: `turn ${i} ${filler(250, i + 1)}` });
    lines.push(recording.lineFor(messages, tools, sent));
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

const withoutTime = ({ trimMs: _ms, ...rest }: { trimMs: number }) => rest;

describe('replay tool', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('records the first request whole and later ones as appends, and reads them back', () => {
    const file = path.join(dir, 'session.jsonl');
    writeSession(file, 5);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.ok(lines[0].startsWith('{"messages":['));
    assert.ok(lines.slice(1).every((l) => l.startsWith('{"append":[')));
    const requests = parseReplayLines(lines);
    assert.strictEqual(requests.length, 5);
    assert.strictEqual(requests[4].messages.length, 2 + 10);
    assert.strictEqual(requests[4].tools.length, 1);
  });

  it('--api: the same cut on every route; on Messages the breakpoints keep the hit high between cut moves and writes are billed', () => {
    const file = path.join(dir, 'routes.jsonl');
    writeSession(file, 80);
    const run = (api: string) => {
      const out = execFileSync(process.execPath, [REPLAY, file, '--context-window', '30000', '--max-output', '4000', '--api', api, '--json'], { encoding: 'utf8' });
      const rows = out.trim().split('\n').map((l) => JSON.parse(l));
      rows.pop();
      return rows;
    };
    const [chat, responses, messages] = ['chat', 'responses', 'messages'].map(run);
    for (const rows of [responses, messages]) assert.deepStrictEqual(rows.map((r) => r.sentIndices), chat.map((r) => r.sentIndices), 'the same cut');
    assert.ok(chat.every((r) => r.cacheWriteTokens === 0));
    assert.ok(messages.slice(1).every((r) => r.cacheWriteTokens > 0), 'each Messages request writes what it appended');
    const held = messages.filter((r, i) => i > 0 && r.removed > 0 && !r.cutMoved);
    assert.ok(held.length > 10 && held.every((r) => r.cacheHit >= 0.9), `held-cut hits ${held.map((r) => r.cacheHit.toFixed(2)).join(' ')}`);
    const bad = spawnSync(process.execPath, [REPLAY, file, '--api', 'soap'], { encoding: 'utf8' });
    assert.strictEqual(bad.status, 2);
    assert.match(bad.stderr, /--api "soap" is not one of chat, responses, messages, gemini/);
  });

  it('without --api, each request goes through the cache of the route it was recorded on; --api overrides it', () => {
    const run = (file: string, ...flags: string[]) => {
      const out = execFileSync(process.execPath, [REPLAY, file, '--context-window', '30000', '--max-output', '4000', ...flags, '--json'], { encoding: 'utf8' });
      return out.trim().split('\n').slice(0, -1).map((l) => JSON.parse(l));
    };
    const plain = path.join(dir, 'plain.jsonl');
    writeSession(plain, 30);
    const onMessages = path.join(dir, 'on-messages.jsonl');
    writeSession(onMessages, 30, { route: 'messages', params: { model: 'claude-x', max_tokens: 4000 }, omitted: [], refused: [] });
    assert.deepStrictEqual(run(onMessages).map(withoutTime), run(plain, '--api', 'messages').map(withoutTime), 'the recorded route is the default');
    assert.deepStrictEqual(run(onMessages, '--api', 'chat').map(withoutTime), run(plain).map(withoutTime), '--api wins over the recording');
    assert.ok(run(onMessages).slice(1).every((r) => r.cacheWriteTokens > 0), 'Messages bills the writes');
    assert.ok(run(plain).every((r) => r.cacheWriteTokens === 0), 'a recording without a route replays on chat');
  });

  it('prints one JSON object per request and a summary; the cut holds between moves and hits stay high', () => {
    const file = path.join(dir, 'long.jsonl');
    writeSession(file, 120);
    const out = execFileSync(process.execPath, [REPLAY, file, '--context-window', '30000', '--max-output', '4000', '--json'], { encoding: 'utf8' });
    const rows = out.trim().split('\n').map((l) => JSON.parse(l));
    const summary = rows.pop().summary;
    assert.strictEqual(rows.length, 120);
    assert.deepStrictEqual(Object.keys(rows[0]).sort(), ['budget', 'bytes', 'cacheHit', 'cacheWriteTokens', 'cachedTokens', 'cutMoved', 'estTokens', 'i', 'overBudget', 'removed', 'sentIndices', 'trimMs'].sort());
    assert.strictEqual(rows[0].budget, 26_000);
    assert.ok(summary.trims > 50, `trims ${summary.trims}`);
    assert.ok(summary.cutMoves >= 2 && summary.cutMoves <= summary.trims / 4, `cut moves ${summary.cutMoves} of ${summary.trims} trims`);
    assert.strictEqual(summary.overBudget, 0);
    const held = rows.filter((r, i) => i > 0 && r.removed > 0 && !r.cutMoved);
    assert.ok(held.every((r) => r.cacheHit > 0.8), 'a held cut keeps the prefix cached');
    assert.ok(rows.every((r) => r.estTokens <= r.budget));
  });

  it('prints the lines the extension would log, and warns about invalid settings on stderr', () => {
    const file = path.join(dir, 'lines.jsonl');
    writeSession(file, 60);
    const run = spawnSync(process.execPath, [REPLAY, file, '--context-window', '20000', '--cut-step', '0', '--headroom-ratio=0.9'], { encoding: 'utf8' });
    assert.strictEqual(run.status, 0);
    assert.match(run.stderr, /warning: opencode\.historyTrim\.headroomRatio 0\.9 is outside 0…0\.5; using 0\.5\./);
    const result = run.stdout;
    assert.match(result, /^\[history-trim\] Dropped \d+ old message\(s\) to fit context window \(budget=10000, maxBytes=524288\); estimated payload now ~\d+ tokens \/ \d+ bytes\. headroom=1000 step=0 cut=(moved|held)$/m);
    assert.match(result, /^\[usage\] prompt=\d+ completion=0 total=\d+ cached=\d+ cacheHit=\d+\.\d%$/m);
  });

  it('exits 2 with the usage text on bad arguments and 1 on a malformed file', () => {
    assert.throws(() => execFileSync(process.execPath, [REPLAY], { stdio: 'pipe' }), (e: { status: number; stderr: Buffer }) => e.status === 2 && /usage: npm run --silent replay/.test(String(e.stderr)));
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, '{"append":[]}\n');
    assert.throws(() => execFileSync(process.execPath, [REPLAY, bad], { stdio: 'pipe' }), (e: { status: number; stderr: Buffer }) => e.status === 1 && /line 1: "append" before any whole request/.test(String(e.stderr)));
  });
});
