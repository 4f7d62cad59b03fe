/**
 * The editor features in a real VS Code: ghost text from the fake server's model accepted the way Tab accepts
 * it, the Source Control command filling the commit box for a staged change in a test repository, a large
 * image reaching the fake server resized, a tool's image reaching a vision model as an image, and an image sent to a
 * text-only model answered from a vision model's description.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { encodePng } from '../core/images/imageCodec';
import { imageSize } from '../core/images/imageSize';
import { ask, chatRequests, enqueueReply, model, resetFake, sleep, waitFor } from './support';

const User = vscode.LanguageModelChatMessage.User;
const Assistant = vscode.LanguageModelChatMessage.Assistant;

/** Deterministic noise: compresses badly, so a 3,000 × 1,500 PNG is over 5 MB as base64. */
function noisePng(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  let state = 7;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    data[i] = (i & 3) === 3 ? 255 : state >>> 24;
  }
  return encodePng({ width, height, data });
}

function imageUrls(content: unknown): string[] {
  return Array.isArray(content) ? content.flatMap((p: { type?: string; image_url?: { url: string } }) => (p.type === 'image_url' && p.image_url ? [p.image_url.url] : [])) : [];
}

/** LanguageModelDataPart is in VS Code 1.139 but not in the @types/vscode the extension builds against (1.104). */
const imagePart = (data: Uint8Array): vscode.LanguageModelTextPart =>
  (vscode as unknown as { LanguageModelDataPart: { image(data: Uint8Array, mime: string): vscode.LanguageModelTextPart } }).LanguageModelDataPart.image(data, 'image/png');

const config = () => vscode.workspace.getConfiguration('opencode');

describe('editor features', () => {
  beforeEach(() => resetFake());

  it('a large image reaches the fake server resized to 2,000 px and within 5 MB', async () => {
    const big = noisePng(3_000, 1_500);
    assert.ok(big.byteLength * 4 / 3 > 5 * 1024 * 1024);
    await enqueueReply({ text: 'a noisy picture' });
    const answer = await ask(await model('fake-vision'), [User([new vscode.LanguageModelTextPart('what is this?'), imagePart(big)])]);
    assert.strictEqual(answer, 'a noisy picture');
    const [request] = await chatRequests();
    const [url] = imageUrls(request.body.messages[0].content);
    const base64 = url.slice(url.indexOf(',') + 1);
    const size = imageSize(Buffer.from(base64, 'base64'));
    assert.ok(size && Math.max(size.width, size.height) <= 2_000, JSON.stringify(size));
    assert.ok(base64.length <= 5 * 1024 * 1024);
  });

  it("a tool's image reaches a vision model as an image (the user message after the tool result)", async () => {
    const shot = noisePng(40, 20);
    await enqueueReply({ text: 'I see the screenshot.' });
    const tools: vscode.LanguageModelChatTool[] = [{ name: 'screenshot', description: 'take a screenshot', inputSchema: { type: 'object', properties: {} } }];
    await ask(await model('fake-vision'), [
      User('what is on screen?'),
      Assistant([new vscode.LanguageModelToolCallPart('call_shot', 'screenshot', {})]),
      User([new vscode.LanguageModelToolResultPart('call_shot', [new vscode.LanguageModelTextPart('took it'), imagePart(shot)])]),
    ], { tools });
    const [request] = await chatRequests();
    const tool = request.body.messages.findIndex((m) => m.role === 'tool');
    assert.strictEqual(request.body.messages[tool].content, 'took it');
    const urls = imageUrls(request.body.messages[tool + 1]?.content);
    assert.strictEqual(urls.length, 1, JSON.stringify(request.body.messages[tool + 1]));
    assert.strictEqual(urls[0], `data:image/png;base64,${Buffer.from(shot).toString('base64')}`);
  });

  it('an image sent to a text-only model (fake-large) is answered from fake-vision\'s description, described once', async () => {
    await config().update('imageDescription.model', 'fake-vision', vscode.ConfigurationTarget.Global);
    try {
      const large = await model('fake-large');
      const caps = (large as unknown as { capabilities?: { supportsImageToText?: boolean } }).capabilities;
      assert.strictEqual(caps?.supportsImageToText, true, 'chat may attach an image: a vision model describes it');
      const photo = noisePng(48, 24);
      // No scripted reply: the describing request would take it. The fake models answer from what they were sent.
      const first = await ask(large, [User([imagePart(photo), new vscode.LanguageModelTextPart('what is in this picture?')])]);
      assert.match(first, /^Answer 1 to: \[image described by fake-vision/, first);
      const second = await ask(large, [User([imagePart(photo), new vscode.LanguageModelTextPart('what is in this picture?')]), Assistant(first), User('and its colours?')]);
      assert.match(second, /^Answer 2 to: and its colours\?/);
      const sent = await chatRequests();
      assert.deepStrictEqual(sent.map((r) => r.body.model), ['fake-vision', 'fake-large', 'fake-large'], 'one describing request for the image across both turns');
      const [, turn1, turn2] = sent.map((r) => r.body.messages as unknown[]);
      assert.strictEqual(JSON.stringify(turn2.slice(0, turn1.length)), JSON.stringify(turn1), 'the second turn sends the first turn\'s bytes again');
      assert.ok(!JSON.stringify(turn2).includes('image_url'), 'no image reaches the text-only model');
    } finally {
      await config().update('imageDescription.model', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('typing in a file shows ghost text from the fake model, and accepting it (Tab) inserts it', async () => {
    await config().update('inlineSuggestions.model', 'fake-large', vscode.ConfigurationTarget.Global);
    await config().update('inlineSuggestions.debounceMs', 0, vscode.ConfigurationTarget.Global);
    await config().update('inlineSuggestions.enabled', true, vscode.ConfigurationTarget.Global);
    try {
      const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'export function add(a: number, b: number) {\n  return \n}\n' });
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(1, 9, 1, 9);
      for (let i = 0; i < 5; i++) await enqueueReply({ text: 'a + b;' });
      await sleep(300);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      const seen = await waitFor(async () => (await chatRequests()).length > 0, 15_000);
      assert.ok(seen, 'the fake server got an inline request');
      const accepted = await waitFor(async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
        return document.getText().includes('return a + b;');
      }, 15_000, 300);
      assert.ok(accepted, document.getText());
      const [request] = await chatRequests();
      assert.ok(String(request.body.messages.at(-1)?.content).includes('  return <|cursor|>'));
    } finally {
      await config().update('inlineSuggestions.enabled', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('the Source Control command fills the commit box for a staged change in a test repository', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-scm-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q');
    fs.writeFileSync(path.join(root, 'math.ts'), 'export const a = 1;\n');
    git('add', '.');
    git('commit', '-qm', 'feat: add a');
    fs.appendFileSync(path.join(root, 'math.ts'), 'export const b = 2;\n');
    git('add', '.');
    await config().update('commitMessage.model', 'fake-large', vscode.ConfigurationTarget.Global);
    const gitApi = (await vscode.extensions.getExtension('vscode.git')!.activate()).getAPI(1);
    const repository = await gitApi.openRepository(vscode.Uri.file(root));
    assert.ok(repository, 'the git extension opened the test repository');
    await waitFor(() => repository.state.indexChanges.length > 0, 15_000);
    await enqueueReply({ text: 'feat: add b' });
    await vscode.commands.executeCommand('opencode.generateCommitMessage', { rootUri: repository.rootUri });
    assert.strictEqual(repository.inputBox.value, 'feat: add b');
    const [request] = await chatRequests();
    const prompt = String(request.body.messages.at(-1)?.content);
    assert.ok(prompt.includes('- feat: add a') && prompt.includes('+export const b = 2;'), prompt);
  });
});
