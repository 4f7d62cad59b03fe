/** The installed extension activates and lists the fake server's models through vscode.lm, as chat sees them. */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { opencodeModels, VENDOR } from './support';

const EXTENSION_ID = 'opencode-community.opencode-chat-provider';

describe('OpenCode provider in a real VS Code', () => {
  it('activates the installed extension', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    assert.ok(ext.isActive);
    console.log(`# VS Code ${vscode.version}, extension host Node ${process.versions.node}, ${EXTENSION_ID} from ${ext.extensionPath}`);
  });

  it('lists the fake server models with their limits and capabilities', async () => {
    const models = await opencodeModels();
    const byId = new Map(models.map(m => [m.id, m]));
    console.log(`# models: ${models.map(m => `${m.id} (${m.name}) maxInputTokens=${m.maxInputTokens}`).join(', ')}`);
    for (const id of ['fake-large', 'fake-small', 'fake-vision']) assert.ok(byId.has(id), `${id} missing`);
    for (const m of models) assert.strictEqual(m.vendor, VENDOR);

    // fake-small: 8,192-token window, 2,048 output tokens -> the input budget is what the window leaves for output.
    // (VS Code 1.139 does not expose maxOutputTokens on LanguageModelChat, only maxInputTokens.)
    assert.strictEqual(byId.get('fake-small')!.maxInputTokens, 8192 - 2048);
    // fake-large: 1,000,000-token window; the input side keeps most of it.
    const large = byId.get('fake-large')!.maxInputTokens;
    assert.ok(large >= 900_000 && large < 1_000_000, `fake-large maxInputTokens ${large}`);

    // Capabilities are not in the typed API, but the runtime object carries what the provider declared.
    const caps = (id: string) => (byId.get(id) as unknown as { capabilities?: { supportsImageToText?: boolean; supportsToolCalling?: boolean } }).capabilities;
    assert.strictEqual(caps('fake-vision')?.supportsImageToText, true, 'fake-vision should accept images');
    assert.strictEqual(caps('fake-large')?.supportsToolCalling, true, 'fake-large should call tools');
  });
});
