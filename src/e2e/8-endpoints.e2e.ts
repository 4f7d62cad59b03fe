/**
 * OpenCode Go and Zen at once (docs/endpoints.md): with `opencode.endpoints` naming both (the fake server mounted as
 * OpenCode's gateway, ids only), VS Code lists the models of every endpoint, each under its endpoint's prefix, and
 * each answers from its own endpoint. The setting is removed afterwards, so the chat-view scripts see the default list.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, fakeUrl, recordedRequests, resetFake, VENDOR, waitFor } from './support';

describe('Go and Zen at once', () => {
  const config = () => vscode.workspace.getConfiguration('opencode');

  after(async () => {
    await config().update('endpoints', undefined, vscode.ConfigurationTarget.Global);
  });

  it('lists Zen and Go models beside the default endpoint, and each answers from its own endpoint', async () => {
    const origin = new URL(fakeUrl()).origin;
    await config().update('endpoints', [{ id: 'zen', baseUrl: `${origin}/zen/v1` }, { id: 'go', baseUrl: `${origin}/zen/go/v1` }], vscode.ConfigurationTarget.Global);
    const wanted = ['zen/claude-sonnet-4-5', 'zen/glm-5', 'go/glm-5', 'fake-large'];
    const models = await waitFor(async () => {
      const listed = await vscode.lm.selectChatModels({ vendor: VENDOR });
      return wanted.every((id) => listed.some((m) => m.id === id)) ? listed : undefined;
    }, 30_000, 300);
    assert.ok(models, `not all of ${wanted.join(', ')} listed`);
    console.log(`# ${models.length} models listed: ${models.filter((m) => m.id.includes('/')).length} from Zen and Go`);
    const byId = new Map(models.map((m) => [m.id, m]));
    // Zen and Go publish different windows for glm-5: each entry carries its own endpoint's.
    assert.notStrictEqual(byId.get('zen/glm-5')?.maxInputTokens, byId.get('go/glm-5')?.maxInputTokens);
    await resetFake();
    for (const id of ['zen/claude-sonnet-4-5', 'go/glm-5']) {
      const text = await ask(byId.get(id)!, [vscode.LanguageModelChatMessage.User(`one answer from ${id}`)]);
      assert.ok(text.length > 0, `${id} answered nothing`);
    }
    const sent = (await recordedRequests()) as unknown as { path?: string; body?: { model?: string } }[];
    const where = sent.filter((r) => r.body?.model).map((r) => `${r.path} ${r.body?.model}`);
    console.log(`# sent: ${where.join('; ')}`);
    assert.ok(where.some((w) => w.startsWith('/zen/v1/messages ') && w.endsWith(' claude-sonnet-4-5')), `Zen's Claude went to Zen's Messages route: ${where.join('; ')}`);
    assert.ok(where.some((w) => w.startsWith('/zen/go/v1/chat/completions ') && w.endsWith(' glm-5')), `Go's GLM went to Go's chat route: ${where.join('; ')}`);
  });
});
