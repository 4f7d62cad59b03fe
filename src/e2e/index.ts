/**
 * Entry point of the in-VS-Code test suite (extensionTestsPath). The extension host loads this module and calls
 * run(); it runs every out/e2e/*.e2e.js file with mocha and settles when they are done (a rejection = failure).
 * The same module serves code-server (scripts/vscode-e2e/run.sh) and desktop VS Code (scripts/vscode-e2e/desktop.mjs).
 * Output is one `ok - …` / `not ok - …` line per test and the closing line `N passed, N failed`.
 * OPENCODE_E2E_GREP (in the extension host's environment) narrows the run to matching test titles.
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

/** Prints TAP-like lines through console.log, which the workbench forwards to the test runner. */
class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    let pending = 0;
    runner.on('pass', (test: Mocha.Test) => {
      passed++;
      console.log(`ok - ${test.fullTitle()} (${test.duration ?? 0} ms)`);
    });
    runner.on('fail', (test: Mocha.Runnable, err: Error) => {
      failed++;
      const detail = String(err?.stack || err?.message || err).split('\n').slice(0, 12).join('\n    ');
      console.log(`not ok - ${test.fullTitle()}\n    ${detail}`);
    });
    runner.on('pending', (test: Mocha.Test) => {
      pending++;
      console.log(`ok - ${test.fullTitle()} # SKIP`);
    });
    runner.once('end', () => {
      if (pending) console.log(`${pending} pending (skipped)`);
      console.log(`${passed} passed, ${failed} failed`);
    });
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: LineReporter });
  if (process.env.OPENCODE_E2E_GREP) mocha.grep(process.env.OPENCODE_E2E_GREP);
  const files = fs.readdirSync(__dirname).filter(f => f.endsWith('.e2e.js')).sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    mocha.run(failures => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
