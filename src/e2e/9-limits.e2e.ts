/**
 * Every model's real limit, as `vscode.lm` reports it in a real VS Code (issue 28):
 * - a model whose data gives an input limit below its window (gpt-5.4-mini behind the fake's Zen mount: 400,000
 *   window, 272,000 input) reports the input limit; a new id of a known family the data does not list (gpt-8)
 *   reports its family's newest limits (gpt-5.5: 922,000 input);
 * - fake-limited lists a 128,000 window but takes 40,000 input tokens and refuses more without naming a number:
 *   two 10-turn conversations meet one refusal in all, every turn is answered, and VS Code is told the learned limit.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, chatRequests, fakeUrl, model, resetFake, VENDOR, waitFor } from './support';

const WORDS = 'apple river stone cloud maple orbit lantern harbor violet meadow copper signal'.split(' ');
const filler = (seed: number, tokens: number): string => Array.from({ length: tokens }, (_, i) => WORDS[(i * 7 + seed) % WORDS.length]).join(' ');

describe('model limits as vscode.lm reports them', function () {
  this.timeout(300_000);
  const config = () => vscode.workspace.getConfiguration('opencode');

  after(async () => {
    await config().update('endpoints', undefined, vscode.ConfigurationTarget.Global);
  });

  it('an input limit below the window, and a new id of a known family, as maxInputTokens', async () => {
    const origin = new URL(fakeUrl()).origin;
    await config().update('endpoints', [{ id: 'zen', baseUrl: `${origin}/zen/v1` }], vscode.ConfigurationTarget.Global);
    const models = await waitFor(async () => {
      const listed = await vscode.lm.selectChatModels({ vendor: VENDOR });
      return ['zen/gpt-5.4-mini', 'zen/gpt-8'].every((id) => listed.some((m) => m.id === id)) ? listed : undefined;
    }, 30_000, 300);
    assert.ok(models, 'zen/gpt-5.4-mini and zen/gpt-8 listed');
    const byId = new Map(models.map((m) => [m.id, m]));
    console.log(`# maxInputTokens: zen/gpt-5.4-mini ${byId.get('zen/gpt-5.4-mini')?.maxInputTokens}, zen/gpt-8 ${byId.get('zen/gpt-8')?.maxInputTokens}`);
    assert.strictEqual(byId.get('zen/gpt-5.4-mini')?.maxInputTokens, 272_000);
    assert.strictEqual(byId.get('zen/gpt-8')?.maxInputTokens, 922_000);
  });

  it('a refusal without a number: one in two 10-turn conversations, every turn answered, VS Code told the learned limit', async () => {
    const before = (await model('fake-limited')).maxInputTokens;
    let refusals = 0;
    for (const conversation of ['first', 'second']) {
      await resetFake();
      const history: vscode.LanguageModelChatMessage[] = [];
      for (let turn = 1; turn <= 10; turn++) {
        history.push(vscode.LanguageModelChatMessage.User(`${conversation} conversation, turn ${turn}: ${filler(turn, 5_000)}`));
        const answer = await ask(await model('fake-limited'), history);
        assert.ok(answer.length > 0, `${conversation} turn ${turn} answered`);
        history.push(vscode.LanguageModelChatMessage.Assistant(answer));
      }
      const sent = (await chatRequests()).length;
      console.log(`# ${conversation} conversation: ${sent} requests for 10 turns`);
      refusals += sent - 10;
      if (conversation === 'second') assert.strictEqual(sent, 10, 'no refusal in the second conversation');
    }
    assert.ok(refusals <= 1, `${refusals} refusals`);
    const after = await waitFor(async () => {
      const now = (await model('fake-limited')).maxInputTokens;
      return now < 40_000 ? now : undefined;
    }, 10_000, 250);
    console.log(`# fake-limited maxInputTokens: ${before} before, ${after} after`);
    assert.ok(after && after < 40_000, `vscode.lm still reports ${after ?? before}`);
  });
});
