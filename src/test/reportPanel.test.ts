/**
 * The report panel as a user drives it: it follows the conversation without holding up the request (the
 * accounting returns before the report steps its figures), its tab names the conversation, the what-if shows
 * a capped value as capped, Write to settings is one change (one `[settings]` line), and the figures kept
 * incrementally are the figures of a whole replay.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { resolveSettings } from '../core/config/settings';
import { reportData, reportDataOf } from '../core/report/reportData';
import { catchUp, ConversationFigures } from '../core/report/reportFigures';
import { RequestLog } from '../core/report/requestLog';
import { SizeMemo } from '../core/trim/messageSize';
import type { WireMessage } from '../core/wire/wireTypes';
import type { ReportData } from '../core/report/reportData';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, assistant, user, type ActivatedExtension } from './support/activatedExtension';
import { useFakeServer } from './support/suiteHooks';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { planTrim } from '../core/trim/planTrim';
import { ConversationStates } from '../core/trim/trimState';
import { runs } from './support/propertyRuns';

const words = (seed: number, count: number): string => Array.from({ length: count }, (_, i) => `w${(seed * 31 + i) % 97}`).join(' ');
const until = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(done(), 'in time');
};

describe('session report panel', () => {
  let ext: ActivatedExtension | undefined;
  const server = useFakeServer();
  // Each test activates its own window; nothing of it outlives the test.
  afterEach(() => void [ext?.dispose(), (ext = undefined), double.settingsStore.clear()]);

  async function chat(model: string, opening: string, turns: number): Promise<void> {
    const history = [user(`${opening} ${words(1, 30)}`)];
    for (let turn = 0; turn < turns; turn++) {
      await ask(ext!, model, history);
      history.push(assistant(`answer ${turn} ${words(turn + 3, 250)}`), user(`turn ${turn} ${words(turn + 5, 250)}`));
    }
  }

  it('follows the chat as requests arrive; each tab names its conversation', async () => {
    ext = activateAgainst(server(), { maxInputTokens: 6_000 });
    await chat('fake-small', 'Explain the build script', 2);
    const panels = double.createdPanels.length;
    const first = (await double.commands.executeCommand('opencode.showReport', 'latest')) as ReportData;
    const panel = double.createdPanels[panels];
    const count = first.records.length;
    assert.match(panel.title, /^Report: Explain the build script/);
    assert.ok(panel.webview.html.includes(`${count} request(s)`));
    // The next request: the open report follows.
    const history = [user(`Explain the build script ${words(1, 30)}`), assistant(`answer 0 ${words(3, 250)}`), user(`turn 0 ${words(5, 250)}`), assistant(`answer 1 ${words(4, 250)}`), user(`turn 1 ${words(6, 250)}`)];
    await ask(ext, 'fake-small', history);
    await until(() => panel.webview.html.includes(`${count + 1} request(s)`));
    await chat('fake-small', 'Write the release notes', 1);
    await double.commands.executeCommand('opencode.showReport', 'latest');
    const second = double.createdPanels[panels + 1];
    assert.match(second.title, /^Report: Write the release notes/);
    assert.notStrictEqual(second.title, panel.title);
  });

  it('the what-if shows a capped step as capped; Write to settings is one [settings] line', async () => {
    ext = activateAgainst(server(), { maxInputTokens: 6_000 });
    await chat('fake-small', 'Cap check', 8);
    const data = (await double.commands.executeCommand('opencode.showReport', 'latest')) as ReportData;
    const budget = data.records[data.records.length - 1].budget;
    const panel = double.createdPanels.at(-1);
    panel.send({ type: 'whatIf', headroom: 100, step: 1_200 });
    await until(() => panel.webview.html.includes('id="whatif-result"'));
    const cap = Math.floor(budget * 0.1);
    assert.ok(panel.webview.html.includes(`${cap.toLocaleString('en-US')} <span class="note">(asked 1,200)</span>`), 'the capped step, and what was asked');
    assert.ok(panel.webview.html.includes('id="whatif-capped"'));
    const lines = (): string[] => ext!.log.text().split('\n').filter((l) => l.includes('[settings] opencode.historyTrim'));
    const before = lines().length;
    panel.send({ type: 'apply', headroom: 150, step: 300 });
    await until(() => panel.webview.html.includes('Wrote headroom 150'));
    assert.strictEqual(lines().length - before, 1, lines().join('\n'));
    assert.match(lines().at(-1) ?? '', /headroomRatio 0\.03 → 0, .*headroomMinTokens 8192 → 150, .*headroomMaxTokens 32768 → 150, .*cutStepTokens 32768 → 300/);
  });
});

describe('report figures kept incrementally', () => {
  const settings = resolveSettings(() => undefined, () => undefined);
  const quiet = { info() {}, warn() {}, error() {}, debug() {} };

  it('catching up yields to the extension host between slices, and stops when cancelled', async () => {
    let slices = 0;
    let others = 0;
    let running = true;
    const other = (): void => void setImmediate(() => running && (others++, other()));
    other();
    assert.strictEqual(await catchUp(() => ++slices >= 6, 0), true);
    assert.ok(others >= 4, `other work ran ${others} times during 6 slices`);
    let cancelled = 0;
    assert.strictEqual(await catchUp(() => false, 0, () => ++cancelled > 2), false);
    running = false;
  });

  it('stepped a request at a time (and sliced) they are the figures of a whole replay', () => {
    const turn = fc.record({ words: fc.integer({ min: 10, max: 900 }), rewrite: fc.boolean(), prompt: fc.nat(400) });
    fc.assert(fc.property(fc.array(turn, { minLength: 1, maxLength: 14 }), fc.integer({ min: 3_000, max: 12_000 }), (turns, budget) => {
      const s = { ...settings, budgetOverrideTokens: budget };
      const limits = { contextWindow: budget * 2, maxOutputTokens: 1_000 };
      const live = { memo: new SizeMemo(), states: new ConversationStates() };
      const log = new RequestLog();
      let figures: ConversationFigures | undefined;
      const history: WireMessage[] = [{ role: 'user', content: `open ${words(0, 20)}` }];
      turns.forEach((t, k) => {
        history.push({ role: 'assistant', content: `a${k} ${words(k, t.words)}` }, { role: 'user', content: `u${k} ${words(t.prompt, 40)}` });
        // An earlier turn sent again differently (an attachment no longer carried).
        if (t.rewrite && history.length > 4) history[2] = { role: 'user', content: `rewritten ${k} ${words(k, 30)}` };
        const plan = planTrim([...history], [], { settings: s, limits, calibration: 1 + (k % 3) / 10, memo: live.memo, states: live.states, log: quiet });
        const record = log.add('m', plan, normalizeUsage({ prompt_tokens: Math.round(plan.trim.rawTokens * 1.1), completion_tokens: 1 })!, 0);
        const conversation = log.get(record.sessionId)!;
        figures ??= new ConversationFigures(s, record, conversation);
        figures.advance(conversation, 0);
      });
      const conversation = log.list()[0];
      while (!figures!.advance(conversation, 0));
      assert.deepStrictEqual(reportDataOf(conversation, figures).costs, reportData(conversation, s).costs);
    }), { numRuns: runs(40) });
  });
});
