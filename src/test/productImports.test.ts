/**
 * The product never imports its tooling: the lint rule (eslint.config.mjs, product/no-tooling-imports) run
 * through ESLint's API on snippets, and the bundle's inputs (scripts/build.mjs writes them) hold no tooling file.
 */
import * as assert from 'assert';
import { ESLint } from 'eslint';
import * as fs from 'fs';
import * as path from 'path';

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

  it('the bundle holds only product code (its inputs, when it was built)', function () {
    const inputs = path.join(root, 'dist', 'extension.inputs.json');
    if (!fs.existsSync(inputs)) this.skip();
    const files = JSON.parse(fs.readFileSync(inputs, 'utf8')) as string[];
    const tooling = files.filter((f) => /^src\/(bench|fakeServer|replay|e2e|tools|test)\//.test(f));
    assert.deepStrictEqual(tooling, []);
    assert.ok(files.includes('src/extension.ts'));
  });
});
