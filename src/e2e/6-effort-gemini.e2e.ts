/**
 * Thinking effort (docs/effort.md) in a real VS Code: a reasoning model (gpt-5.4-mini, a catalogue id the fake server serves on
 * Responses) is listed and offered with its thinking-effort levels (the provider's `configurationSchema`, written
 * to the real OpenCode.log by the `[picker]` line), the level chosen for a request reaches the wire, and
 * fake-native-gemini answers through vscode.lm with a `[usage]` line in the real OpenCode.log.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, model, opencodeModels, openCodeLogFile, readLog, recordedRequests, resetFake, waitFor } from './support';

type Recorded = { path?: string; body?: { reasoning?: { effort?: string } } };

function logTail(file: string | undefined, offset: number): string {
  const now = openCodeLogFile();
  return now ? readLog(now).slice(now === file ? offset : 0) : '';
}

describe('thinking effort and Gemini through vscode.lm', function () {
  this.timeout(120_000);

  it('lists a reasoning model whose configurationSchema offers effort levels', async () => {
    const models = await opencodeModels();
    const mini = models.find((m) => m.id === 'gpt-5.4-mini');
    assert.ok(mini, `gpt-5.4-mini not among ${models.map((m) => m.id).join(', ')}`);
    assert.strictEqual([...models].sort((a, b) => a.id.localeCompare(b.id))[0].id, 'fake-large', 'fake-large stays first for the participant');
    const runtime = (mini as unknown as { configurationSchema?: { properties?: { reasoningEffort?: { enum?: string[] } } } }).configurationSchema;
    console.log(`# gpt-5.4-mini configurationSchema on the LanguageModelChat object: ${runtime ? JSON.stringify(runtime.properties?.reasoningEffort?.enum) : 'not exposed by this VS Code'}`);
    if (runtime) assert.deepStrictEqual(runtime.properties?.reasoningEffort?.enum, ['default', 'none', 'low', 'medium', 'high', 'xhigh']);
    const line = await waitFor(() => /\[picker\] thinking effort: .*gpt-5\.4-mini\(default\/none\/low\/medium\/high\/xhigh\)/.exec(readLog(openCodeLogFile() ?? ''))?.[0]);
    assert.ok(line, 'the provider handed VS Code the effort levels ([picker] line in OpenCode.log)');
    console.log(`# ${line}`);
  });

  it('the chosen level reaches the Responses body', async () => {
    await resetFake();
    const chat = await model('gpt-5.4-mini');
    const text = await ask(chat, [vscode.LanguageModelChatMessage.User('Think hard about this')], { modelOptions: { reasoningEffort: 'high' } });
    assert.match(text, /Think hard about this/);
    const sent = ((await recordedRequests()) as unknown as Recorded[]).filter((r) => r.path === '/v1/responses');
    assert.strictEqual(sent.at(-1)?.body?.reasoning?.effort, 'high', `reasoning ${JSON.stringify(sent.at(-1)?.body?.reasoning)}; body keys ${Object.keys(sent.at(-1)?.body ?? {}).join(',')}`);
  });

  it('fake-native-gemini answers through vscode.lm, with a [usage] line in OpenCode.log', async () => {
    await resetFake();
    const file = openCodeLogFile();
    const offset = file ? readLog(file).length : 0;
    const text = await ask(await model('fake-native-gemini'), [vscode.LanguageModelChatMessage.User('Hello Gemini')]);
    assert.match(text, /Hello Gemini/);
    const paths = ((await recordedRequests()) as unknown as Recorded[]).map((r) => r.path).filter((p) => p && p !== '/v1/models');
    assert.strictEqual(paths.at(-1), '/v1/models/fake-native-gemini:streamGenerateContent', `requests went to ${paths.join(', ')}`);
    const logged = await waitFor(() => {
      const tail = logTail(file, offset);
      return /\[usage\] prompt=\d+/.test(tail) ? tail : undefined;
    });
    assert.ok(logged, 'no [usage] line for fake-native-gemini');
    console.log(`# fake-native-gemini: ${/\[usage\][^\n]*/.exec(logged)![0]}`);
  });
});
