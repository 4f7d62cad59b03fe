/**
 * Mocha's spec reporter plus one closing line `N passed, N failed, N skipped`, the plain summary that CI
 * and the real-VS-Code suite print too, so every test run ends the same way.
 */
import Mocha from 'mocha';

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once('end', () => {
      const stats = runner.stats;
      if (stats) console.log(`${stats.passes} passed, ${stats.failures} failed, ${stats.pending} skipped`);
    });
  }
}

export = SpecWithSummary;
