/**
 * @opencode's references other than pasted text — #file, a selection (Location with a range), images, a file
 * too large for the allowance, files that cannot be read — from real files in a temp folder, through the
 * activated extension and the shared vscode double, to what the fake server received.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PARTICIPANT_ID } from '../vscode/chatParticipant';
import * as double from './support/vscodeDouble';
import { activateAgainst } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

interface Sent {
  /** The last user message's content as the fake server received it. */
  content: unknown;
  text: string;
  streamed: string;
}

describe('@opencode references: files, selections, images', () => {
  const server = useFakeServer();
  const ext = useActivated(server, activateAgainst);
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-refs-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, content: string | Buffer): string => {
    const full = path.join(dir, name);
    fs.writeFileSync(full, content);
    return full;
  };

  /** A reference as chat hands it over: its marker `#kind:name` inside the prompt gives its range. */
  function withMarkers(words: string, refs: { marker: string; value: unknown; id?: string }[]): { prompt: string; references: unknown[] } {
    const prompt = `${words} ${refs.map((r) => r.marker).join(' ')}`;
    const references = refs.map((r) => {
      const start = prompt.indexOf(r.marker);
      return { id: r.id ?? 'vscode.file', range: [start, start + r.marker.length], value: r.value };
    });
    return { prompt, references: references.reverse() };
  }

  async function send(modelId: string, prompt: string, references: unknown[]): Promise<Sent> {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant);
    server().enqueueReply({ text: 'Answer.' });
    const model = (await double.lm.selectChatModels({ vendor: 'opencode' })).find((m) => m.id === modelId);
    assert.ok(model, modelId);
    const streamed: string[] = [];
    await participant.handler({ prompt, model, references }, { history: [] }, { markdown: (md: string | { value: string }) => streamed.push(typeof md === 'string' ? md : md.value) }, new double.CancellationTokenSource().token);
    const messages = server().requests.at(-1)?.body.messages as { role: string; content: unknown }[];
    assert.ok(messages, 'the fake server received the request');
    const last = messages[messages.length - 1];
    assert.strictEqual(last.role, 'user');
    const text = typeof last.content === 'string' ? last.content : (last.content as { type: string; text?: string }[]).map((p) => p.text ?? '').join('');
    return { content: last.content, text, streamed: streamed.join('') };
  }

  it('#file: the file text goes before the prompt as an attachment named by its marker; no footer', async () => {
    const source = 'export const FILE_MARKER = 7;\nexport function twice(n: number) { return 2 * n; }\n';
    const { prompt, references } = withMarkers('explain', [{ marker: '#file:util.ts', value: double.Uri.file(file('util.ts', source)) }]);
    const sent = await send('fake-large', prompt, references);
    assert.strictEqual(sent.text, `<attachment name="util.ts">\n${source}\n</attachment>${prompt}`);
    assert.strictEqual(sent.streamed, 'Answer.');
  });

  it('a selection (Location with a range): only that range is sent, named with its lines', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1} of the file`);
    const uri = double.Uri.file(file('long.txt', lines.join('\n')));
    const range = new double.Range(4, 5, 6, 4); // "5 of the file" … "line" of line 7
    const { prompt, references } = withMarkers('what is', [{ marker: '#selection', value: new double.Location(uri, range), id: 'vscode.implicit.selection' }]);
    const sent = await send('fake-large', prompt, references);
    assert.strictEqual(sent.text, `<attachment name="selection (lines 5-7)">\n5 of the file\nline 6 of the file\nline\n</attachment>${prompt}`);
    assert.ok(!sent.text.includes('line 8'), 'nothing outside the range');
    assert.ok(!sent.streamed.includes('Not included'), sent.streamed);
  });

  it('an open editor is sent as the user sees it: unsaved edits, an untitled file', async () => {
    const uri = double.Uri.file(file('edited.ts', 'DISK_VERSION'));
    const untitled = double.Uri.from({ scheme: 'untitled', path: 'Untitled-1' });
    const closers = [double.openEditor(uri, 'EDITED_NOT_SAVED'), double.openEditor(untitled, 'SCRATCH_TEXT')];
    try {
      const { prompt, references } = withMarkers('compare', [{ marker: '#file:edited.ts', value: uri }, { marker: '#file:Untitled-1', value: untitled }]);
      const sent = await send('fake-large', prompt, references);
      assert.strictEqual(sent.text, `<attachment name="edited.ts">\nEDITED_NOT_SAVED\n</attachment><attachment name="Untitled-1">\nSCRATCH_TEXT\n</attachment>${prompt}`);
    } finally {
      closers.forEach((close) => close());
    }
  });

  it('a selection of whole lines is named by the lines it covers', async () => {
    const uri = double.Uri.file(file('five.txt', 'one\ntwo\nthree\nfour\nfive\n'));
    const { prompt, references } = withMarkers('see', [
      { marker: '#sel:a', value: new double.Location(uri, new double.Range(1, 0, 3, 0)) },
      { marker: '#sel:b', value: new double.Location(uri, new double.Range(4, 0, 4, 4)) },
    ]);
    const sent = await send('fake-large', prompt, references);
    assert.strictEqual(sent.text, `<attachment name="a (lines 2-3)">\ntwo\nthree\n\n</attachment><attachment name="b (line 5)">\nfive\n</attachment>${prompt}`);
  });

  it('an image goes to a vision model as an image part', async () => {
    const { prompt, references } = withMarkers('what is in', [{ marker: '#file:dot.png', value: double.Uri.file(file('dot.png', PNG)) }]);
    const sent = await send('fake-vision', prompt, references);
    const parts = sent.content as { type: string; image_url?: { url: string }; text?: string }[];
    assert.deepStrictEqual(parts.map((p) => p.type), ['image_url', 'text']);
    assert.strictEqual(parts[0].image_url?.url, `data:image/png;base64,${PNG.toString('base64')}`);
    assert.strictEqual(parts[1].text, prompt);
    assert.ok(!sent.streamed.includes('Not included'), sent.streamed);
  });

  it('binary image data (pasted screenshot) goes to a vision model too', async () => {
    const value = { mimeType: 'image/png', data: async () => new Uint8Array(PNG) };
    const { prompt, references } = withMarkers('look at', [{ marker: '#attachment:image.png', value, id: 'vscode.image' }]);
    const sent = await send('fake-vision', prompt, references);
    const parts = sent.content as { type: string }[];
    assert.deepStrictEqual(parts.map((p) => p.type), ['image_url', 'text']);
  });

  it('without a describing model (`none`), an image for a text-only model is left out, and the footer names it', async () => {
    ext().dispose();
    const alone = activateAgainst(server(), { 'imageDescription.model': 'none' });
    try {
      const { prompt, references } = withMarkers('what is in', [{ marker: '#file:dot.png', value: double.Uri.file(file('dot.png', PNG)) }]);
      const sent = await send('fake-large', prompt, references);
      assert.strictEqual(sent.text, prompt, 'only the prompt');
      assert.ok(!JSON.stringify(sent.content).includes('image_url'));
      assert.ok(sent.streamed.endsWith('_Not included in full: dot.png (this model does not take images)._'), sent.streamed);
    } finally {
      alone.dispose();
    }
  });

  it('with a describing model, an image for a text-only model reaches it as the description (the queued reply is what fake-vision said)', async () => {
    ext().dispose();
    const described = activateAgainst(server(), { 'imageDescription.model': 'fake-vision' });
    try {
      const { prompt, references } = withMarkers('what is in', [{ marker: '#file:dot.png', value: double.Uri.file(file('dot.png', PNG)) }]);
      const sent = await send('fake-large', prompt, references);
      assert.ok(sent.text.includes('[image described by fake-vision (this model does not accept images): Answer.]'), sent.text);
      assert.ok(!JSON.stringify(sent.content).includes('image_url'));
      assert.ok(!sent.streamed.includes('does not take images'), sent.streamed);
    } finally {
      described.dispose();
    }
  });

  it('a pasted image (no range, a 64-hex id) for a text-only model is named "pasted image (PNG)" in the footer, not by its hash', async () => {
    ext().dispose();
    const alone = activateAgainst(server(), { 'imageDescription.model': 'none' }); // no describer: the image is left out
    try {
      const value = { mimeType: 'image/png', data: async () => new Uint8Array(PNG) };
      const hash = 'a3f1'.repeat(16);
      const sent = await send('fake-large', 'what is in this screenshot', [{ id: hash, value }]);
      assert.ok(sent.streamed.endsWith('_Not included in full: pasted image (PNG) (this model does not take images)._'), sent.streamed);
      assert.ok(!sent.streamed.includes(hash));
    } finally {
      alone.dispose();
    }
  });

  it('a file too large for the allowance is cut with a marker, and the footer says so', async () => {
    // fake-small: 8,192-token window, 2,048 output → the attachments may take about 3K tokens.
    const big = Array.from({ length: 4_000 }, (_, i) => `row ${i} value ${i * 7}`).join('\n');
    const { prompt, references } = withMarkers('sum', [{ marker: '#file:big.csv', value: double.Uri.file(file('big.csv', big)) }]);
    const sent = await send('fake-small', prompt, references);
    assert.ok(sent.text.startsWith('<attachment name="big.csv">\nrow 0 value 0\n'), sent.text.slice(0, 80));
    assert.ok(sent.text.includes("[… the rest was cut to fit the model's window …]\n</attachment>"));
    assert.ok(sent.text.endsWith(prompt));
    assert.ok(sent.text.length < big.length / 2, `${sent.text.length} of ${big.length} characters`);
    assert.match(sent.streamed, /_Not included in full: big\.csv \(cut to ~\d+ of ~\d+ tokens to fit the model's window\)\._$/);
  });

  describe('in a workspace folder', () => {
    beforeEach(() => {
      double.workspace.workspaceFolders = [{ uri: double.Uri.file(dir), name: 'ws', index: 0 }];
    });
    afterEach(() => {
      double.workspace.workspaceFolders = undefined;
    });

    it('#file: typed as plain text (no reference from VS Code) is read from the workspace; a path it lacks is named in the footer', async () => {
      fs.mkdirSync(path.join(dir, 'src'));
      file('src/typed.ts', 'export const TYPED_MARKER = 1;\n');
      const prompt = 'explain #file:src/typed.ts, and #file:nowhere.ts please';
      const sent = await send('fake-large', prompt, []);
      assert.strictEqual(sent.text, `<attachment name="src/typed.ts">\nexport const TYPED_MARKER = 1;\n\n</attachment>${prompt}`);
      assert.ok(sent.streamed.endsWith('_Not included in full: nowhere.ts (no such file in the workspace)._'), sent.streamed);
    });

    it('an attached file without a marker is named by its workspace path, not its URI', async () => {
      fs.mkdirSync(path.join(dir, 'lib'));
      const uri = double.Uri.file(file('lib/named.ts', 'NAMED'));
      const references = [{ id: `vscode-remote://127.0.0.1:8080${uri.path}`, value: uri }];
      const sent = await send('fake-large', 'look', references);
      assert.strictEqual(sent.text, '<attachment name="lib/named.ts">\nNAMED\n</attachment>look');
    });
  });

  it('files that cannot be read are named in the footer; the readable ones and the prompt still go', async () => {
    const gone = double.Uri.file(path.join(dir, 'deleted.ts'));
    const binary = double.Uri.file(file('blob.bin', Buffer.from([1, 0, 2, 0, 3])));
    const folder = double.Uri.file(dir);
    const goneRange = new double.Location(double.Uri.file(path.join(dir, 'gone.ts')), new double.Range(0, 0, 1, 0));
    const huge = double.Uri.file(file('huge.log', Buffer.alloc(2 * 1024 * 1024 + 1, 'a')));
    const ok = double.Uri.file(file('ok.txt', 'READABLE_MARKER'));
    const { prompt, references } = withMarkers('check', [
      { marker: '#file:deleted.ts', value: gone },
      { marker: '#file:blob.bin', value: binary },
      { marker: '#folder:refs', value: folder, id: 'vscode.folder' },
      { marker: '#selection', value: goneRange },
      { marker: '#file:huge.log', value: huge },
      { marker: '#file:ok.txt', value: ok },
    ]);
    const sent = await send('fake-large', prompt, references);
    assert.strictEqual(sent.text, `<attachment name="ok.txt">\nREADABLE_MARKER\n</attachment>${prompt}`);
    const footer = sent.streamed.slice(sent.streamed.indexOf('Not included'));
    assert.match(footer, /^Not included in full: deleted\.ts \(could not be read: [^)]*ENOENT[^)]*\); blob\.bin \(a binary file\); refs \(a folder, not a file\); selection \(could not be read: [^)]*ENOENT[^)]*\); huge\.log \(2048 KiB is too large to attach\)\._$/);
  });
});
