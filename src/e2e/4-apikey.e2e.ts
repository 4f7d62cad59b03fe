/**
 * Without an API key, a non-loopback endpoint must fail with an error that tells the user what to do.
 * The harness starts code-server without OPENCODE_API_KEY, and the fresh profile has no stored secret.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, fakeUrl, opencodeModels, sleep } from './support';

describe('missing API key', () => {
  const config = () => vscode.workspace.getConfiguration('opencode');
  let previous: string | undefined;

  before(() => {
    assert.ok(!process.env.OPENCODE_API_KEY, 'OPENCODE_API_KEY must not be set for this test');
    previous = config().inspect<string>('baseUrl')?.globalValue;
  });
  after(async () => {
    await config().update('baseUrl', previous ?? fakeUrl(), vscode.ConfigurationTarget.Global);
    const back = await opencodeModels();
    assert.ok(back.length > 0, 'models did not come back after restoring opencode.baseUrl');
  });

  it('names the API key and the "OpenCode: Set API Key" command', async () => {
    const [before] = await opencodeModels();
    assert.ok(before, 'no OpenCode model to start from');
    await config().update('baseUrl', 'https://example.invalid/v1', vscode.ConfigurationTarget.Global);
    await sleep(500); // let the provider see the change and refresh its model list
    // The model list for the new endpoint may be a fallback list or empty; either way a request must explain itself.
    const after = await vscode.lm.selectChatModels({ vendor: 'opencode' });
    const target = after[0] ?? before;
    let error: unknown;
    try {
      await ask(target, [vscode.LanguageModelChatMessage.User('hello')]);
    } catch (e) {
      error = e;
    }
    assert.ok(error, 'the request succeeded without an API key');
    const message = error instanceof Error ? error.message : String(error);
    console.log(`# error shown: ${message}`);
    assert.match(message, /API key/i);
    assert.match(message, /OpenCode: Set API Key/);
  });
});
