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
    const url = 'https://example.invalid/v1';
    await config().update('baseUrl', url, vscode.ConfigurationTarget.Global);
    // The provider sees the change and re-lists its models (a fallback list, or none without a key).
    await sleep(1000);
    const models = await vscode.lm.selectChatModels({ vendor: 'opencode' });
    assert.ok(models.length > 0,
      `no OpenCode model is listed for ${url} without an API key, so neither vscode.lm nor the chat view can ` +
      'reach the missing-key error: the model picker just stays empty, with no hint to set a key');
    let error: unknown;
    try {
      await ask(models[0], [vscode.LanguageModelChatMessage.User('hello')]);
    } catch (e) {
      error = e;
    }
    assert.ok(error, `a request to ${models[0].id} at ${url} succeeded without an API key`);
    const message = error instanceof Error ? error.message : String(error);
    console.log(`# error shown: ${message}`);
    assert.match(message, /API key/i);
    assert.match(message, /OpenCode: Set API Key/);
  });
});
