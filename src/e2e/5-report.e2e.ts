/**
 * The session report's numbers against the REAL OpenCode log: a few `vscode.lm` requests, then the
 * "OpenCode: Show Session Report" command (which opens the webview and returns the data it rendered) must
 * report one request per `[usage]` line with the same prompt and cached tokens. The status bar item and the
 * webview's DOM are read by scripts/vscode-e2e/report-ui.cjs, which sees the workbench.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, enqueueReply, model, openCodeLogFile, readLog, resetFake, waitFor } from './support';

interface ReportRecord {
  promptTokens: number;
  cachedTokens: number;
  costUsd?: number;
}

describe('session report (real VS Code)', function () {
  this.timeout(120_000);

  it('opens for the latest conversation and its figures equal the [usage] lines', async () => {
    await resetFake();
    const chat = await model('fake-large');
    const file = openCodeLogFile();
    const offset = file ? readLog(file).length : 0;
    const history: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(`Report test. ${'context words '.repeat(300)}`)];
    for (let i = 1; i <= 3; i++) {
      await enqueueReply({ text: `report answer ${i}` });
      history.push(vscode.LanguageModelChatMessage.Assistant(await ask(chat, history)));
      history.push(vscode.LanguageModelChatMessage.User(`follow-up ${i}`));
    }
    const usage = await waitFor(() => {
      const now = openCodeLogFile();
      const text = now ? readLog(now).slice(now === file ? offset : 0) : '';
      const lines = [...text.matchAll(/\[usage\] prompt=(\d+) completion=\d+ total=\d+ cached=(\d+) cacheHit=[\d.]+% cost=\$(\d+\.\d+)/g)];
      return lines.length >= 3 ? lines.slice(-3).map((m) => ({ prompt: Number(m[1]), cached: Number(m[2]), cost: Number(m[3]) })) : undefined;
    }, 20_000, 250);
    assert.ok(usage, 'three [usage] lines on disk');
    const data = (await vscode.commands.executeCommand('opencode.showReport', 'latest')) as { records: ReportRecord[]; totals: { requests: number } } | undefined;
    assert.ok(data, 'the report command returned its data');
    assert.strictEqual(data.totals.requests, 3);
    // Dollars too: each request's cost is its [usage] line's (OpenCode's cost frame, six decimals).
    assert.deepStrictEqual(data.records.map((r) => ({ prompt: r.promptTokens, cached: r.cachedTokens, cost: Number((r.costUsd ?? NaN).toFixed(6)) })), usage);
    assert.ok(usage[2].cached > 0, 'the third request hit the cache');
  });
});
