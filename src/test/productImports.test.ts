/**
 * The product never imports its tooling: the lint rule (eslint.config.mjs, product/no-tooling-imports) run
 * through ESLint's API on snippets, and the bundle's inputs (scripts/build.mjs writes them) hold no tooling file.
 */
import * as assert from 'assert';
import { ESLint } from 'eslint';
import * as fs from 'fs';
import * as path from 'path';
import { fitImage } from '../core/images/fitImage';
import { ImageFitter } from '../core/images/imageFitter';
import { noisePixels, pngOf } from './support/testImages';

const root = path.join(__dirname, '..', '..');

async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the product apart from its tools', () => {
  it('a shipped file importing any tooling folder fails the lint; the same import from tooling passes', async () => {
    const cases: [string, string][] = [
      ['src/core/report/x.ts', "import { minimalFitDropUnits } from '../../bench/policies/baselines';\nexport const f = minimalFitDropUnits;\n"],
      ['src/core/report/x.ts', "export { parseArgs } from '../../replay/replayArgs';\n"],
      ['src/core/routes/gemini/x.ts', "import type { X } from '../../../fakeServer/types';\nexport type Y = X;\n"],
      ['src/vscode/x.ts', "import * as t from '../test/support/vscodeDouble';\nexport const d = t;\n"],
      ['src/extension.ts', "export * from './e2e/support';\n"],
      ['src/cacheModel/x.ts', "const r = require('../tools/replay');\nexport const q = r;\n"],
    ];
    for (const [file, code] of cases) {
      const messages = await lint(file, code);
      assert.ok(messages.some((m) => m.startsWith('product/no-tooling-imports: Shipped code imports tooling')), `${file}: ${messages.join('; ')}`);
    }
    // core/replay is the product's (the recording reader), src/replay the CLI's: resolved, not matched by name.
    assert.deepStrictEqual(await lint('src/core/report/x.ts', "import { parseReplayLines } from '../replay/replayFile';\nexport const p = parseReplayLines;\n"), []);
    assert.deepStrictEqual(await lint('src/bench/x.ts', "import { parseArgs } from '../replay/replayArgs';\nexport const p = parseArgs;\n"), []);
  });

  it('shipped code may name the oracle SDKs\' types (import type) but never import a value from them', async () => {
    const refused = (messages: string[]): boolean => messages.some((m) => m.startsWith('@typescript-eslint/no-restricted-imports:'));
    const typeOnly = [
      "import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';\nexport type B = MessageCreateParamsStreaming;\n",
      "import type { Part } from '@google/genai';\nexport type P = Part;\n",
    ];
    const values = [
      "import Anthropic from '@anthropic-ai/sdk';\nexport const a = Anthropic;\n",
      "import { GoogleGenAI } from '@google/genai';\nexport const g = GoogleGenAI;\n",
    ];
    for (const file of ['src/core/routes/messages/x.ts', 'src/vscode/x.ts']) {
      for (const code of typeOnly) assert.ok(!refused(await lint(file, code)), `${file}: ${code}`);
      for (const code of values) assert.ok(refused(await lint(file, code)), `${file}: ${code}`);
    }
    assert.ok(!refused(await lint('src/test/x.ts', values[0])), 'the differential tests import the SDKs');
  });

  it('the bundle holds only product code (its inputs, when it was built)', function () {
    const inputs = path.join(root, 'dist', 'extension.inputs.json');
    if (!fs.existsSync(inputs)) this.skip();
    const files = JSON.parse(fs.readFileSync(inputs, 'utf8')) as string[];
    const tooling = files.filter((f) => /^src\/(bench|fakeServer|replay|e2e|tools|test)\//.test(f));
    assert.deepStrictEqual(tooling, []);
    assert.ok(files.includes('src/extension.ts'));
    // Nothing is decoded on the host thread: the codecs live in the image worker's bundle only.
    assert.deepStrictEqual(files.filter((f) => /src\/core\/images\/(imageCodec|fitImage|resizePixels)\.ts$/.test(f)), []);
    assert.ok(files.includes('src/core/images/imageFitter.ts'));
  });

  it('the bundled image worker (dist/imageWorker.js, shipped in the .vsix) runs on its own and fits an image', async function () {
    const worker = path.join(root, 'dist', 'imageWorker.js');
    if (!fs.existsSync(worker)) this.skip();
    assert.ok(!/require\("(pngjs|jpeg-js)"\)/.test(fs.readFileSync(worker, 'utf8')), 'the codecs are bundled in, not required');
    assert.match(fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!dist\/imageWorker\.js$/m);
    const fitter = new ImageFitter({ workerFile: worker });
    const image = pngOf(noisePixels(300, 100, 4));
    const fitted = await fitter.fit({ mimeType: 'image/png', data: image }, { maxLongSide: 100, maxBytes: 1_000_000 }).finally(() => fitter.close());
    assert.strictEqual(fitted.outcome, 'fitted');
    assert.ok(Buffer.from(fitted.data).equals(Buffer.from(fitImage({ mimeType: 'image/png', data: image }, { maxLongSide: 100, maxBytes: 1_000_000 }).data)));
  });
});
