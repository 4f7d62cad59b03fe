/**
 * The report's replay of this extension reproduces the live session it replays, on every route: against the
 * fake server (which models the provider's prefix cache), the replay of our trim makes the very cuts the live
 * requests made and its cache hit is within REPLAY_HIT_TOLERANCE of what the endpoint reported — with a
 * calibration learned before the conversation began, and with an earlier turn re-sent differently from how it
 * was first sent (the prefix breaks live; the replay must see it too). The same for the conversation reopened
 * from its recording (opencode.recordRequests).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { ReportData } from '../core/report/reportData';
import { totals } from '../core/report/totals';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, assistant, user, type ActivatedExtension } from './support/activatedExtension';
import { useFakeServer } from './support/suiteHooks';

/** Mean cache hit of the replay vs the endpoint's, in points: the replay's blocks are estimator-sized, the fake's o200k-counted. */
export const REPLAY_HIT_TOLERANCE = 0.05;

const ROUTES = [
  ['chat', 'fake-small'],
  ['responses', 'fake-responses'],
  ['messages', 'fake-messages'],
  ['gemini', 'fake-native-gemini'],
] as const;

const words = (seed: number, count: number): string => Array.from({ length: count }, (_, i) => `w${(seed * 31 + i) % 97}`).join(' ');

/** A conversation whose second turn went with an attachment that later turns' history no longer carries. */
async function conversation(ext: ActivatedExtension, model: string, turns: number, tag: string): Promise<void> {
  const history = [user(`${tag} first question ${words(1, 40)}`)];
  await ask(ext, model, history);
  for (let turn = 0; turn < turns; turn++) {
    history.push(assistant(`answer ${turn} ${words(turn + 3, 260)}`));
    const prompt = `${tag} turn ${turn} ${words(turn + 5, 200)}`;
    history.push(user(turn === 0 ? `${prompt}\n<attachment>${words(2, 300)}</attachment>` : prompt));
    await ask(ext, model, history);
    history[history.length - 1] = user(prompt);
  }
}

const showLatest = async (): Promise<ReportData> => (await double.commands.executeCommand('opencode.showReport', 'latest')) as ReportData;

describe('session report: the replay of this extension reproduces the live session', () => {
  const server = useFakeServer();
  let ext: ActivatedExtension | undefined;
  afterEach(() => {
    ext?.dispose();
    ext = undefined;
    double.settingsStore.clear();
    double.quickPick.choose = undefined;
  });

  for (const [route, model] of ROUTES) {
    it(`${route}: same cut moves, request by request; hit within ${REPLAY_HIT_TOLERANCE * 100} points; also reopened from the recording`, async () => {
      // A calibration saved by an earlier window (the model's estimate was far off then): the live trim starts
      // from it and learns its way back, request by request; the replay must trim each request as live did.
      const saved = new double.MemoryMemento();
      await saved.update('opencode.calibrations', { [model]: { factor: 1.4, spread: 0.1 } });
      ext = activateAgainst(server(), { maxInputTokens: 6_000, recordRequests: true }, saved);
      await conversation(ext, model, 16, 'measured');
      const live = await showLatest();
      const observed = totals(live.records);
      const ours = live.costs.find((row) => row.id === 'ours');
      assert.ok(ours);
      assert.ok(observed.cutMoves >= 2, `the session cuts (${observed.cutMoves} moves)`);
      assert.ok(live.records[2].cacheHit < live.records[3].cacheHit, 'the turn re-sent without its attachment breaks the prefix live');
      assert.strictEqual(ours.summary.cutMoves, observed.cutMoves, 'cut moves');
      assert.ok(Math.abs(ours.summary.meanHit - observed.meanHit) <= REPLAY_HIT_TOLERANCE, `mean hit: replay ${ours.summary.meanHit} vs live ${observed.meanHit}`);

      const file = fs.readdirSync(path.join(ext.logDir, 'requests')).find((f) => f.startsWith(live.sessionId) && f.endsWith('.jsonl'));
      assert.ok(file, 'recorded');
      // A restart: the recordings are what is left of the conversation.
      const kept = fs.mkdtempSync(path.join(ext.logDir, '..', 'opencode-kept-'));
      fs.cpSync(path.join(ext.logDir, 'requests'), kept, { recursive: true });
      ext.dispose();
      ext = activateAgainst(server(), { maxInputTokens: 6_000, recordRequests: true });
      fs.cpSync(kept, path.join(ext.logDir, 'requests'), { recursive: true });
      fs.rmSync(kept, { recursive: true, force: true });
      double.quickPick.choose = (items) => items.find((i: { detail?: string }) => i.detail?.endsWith(file));
      const recorded = (await double.commands.executeCommand('opencode.showReport', 'none')) as ReportData;
      assert.strictEqual(recorded.recordedFile, file);
      assert.deepStrictEqual(recorded.records.map((r) => r.removed), live.records.map((r) => r.removed), 'the recording replays onto the live cuts');
      assert.deepStrictEqual(recorded.records.map((r) => r.cutMoved), live.records.map((r) => r.cutMoved));
      const replayedHit = totals(recorded.records).meanHit;
      assert.ok(Math.abs(replayedHit - observed.meanHit) <= REPLAY_HIT_TOLERANCE, `recorded mean hit: replay ${replayedHit} vs live ${observed.meanHit}`);
    });
  }
});
