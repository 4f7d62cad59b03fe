/**
 * How much of the product one chat request runs (issue 30's measure): V8's precise coverage, taken around one short
 * answer per route through the activated extension over real HTTP, counts the compiled product files that ran any
 * function. It fails above 50 files on any route (docs/architecture.md "How much one request runs"). Two of the 50
 * (tokens/tokenCounter.js, tokens/o200k.js) run only because the fake server, in this process, counts exact tokens
 * for its cache model; the product's own request runs 48.
 */
import * as assert from 'assert';
import * as inspector from 'inspector';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

/** The bound per route (2026-12-02: 100/95/97/96 before the one-way redesign, 50 on each after); the request after a first one warmed every lazy path. */
const CEILING: Record<string, number> = { 'fake-large': 50, 'fake-responses': 50, 'fake-messages': 50, 'fake-native-gemini': 50 };
const PRODUCT = path.resolve(__dirname, '..');

interface ScriptCoverage { url: string; functions: { ranges: { count: number }[] }[] }

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T))));
}

/** Product files (out/core, out/vscode, out/extension.js) with at least one function called since the last take. */
function productFilesRun(coverage: ScriptCoverage[]): string[] {
  const files = new Set<string>();
  for (const script of coverage) {
    if (!script.url.startsWith('file:')) continue;
    const file = path.relative(PRODUCT, fileURLToPath(script.url));
    const product = file === 'extension.js' || /^(core|vscode)[\\/]/.test(file);
    if (product && script.functions.some((f) => f.ranges[0]?.count > 0)) files.add(file);
  }
  return [...files].sort();
}

describe('one chat request runs a bounded part of the product (V8 coverage, real HTTP)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, (s) => activateAgainst(s));
  const session = new inspector.Session();
  before(async () => {
    session.connect();
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  });
  after(async () => {
    await post(session, 'Profiler.stopPreciseCoverage');
    session.disconnect();
  });

  for (const model of Object.keys(CEILING)) {
    it(`${model}: at most ${CEILING[model]} product files`, async () => {
      await ask(ext(), model, [user('Warm every lazy path first.')]);
      await post(session, 'Profiler.takePreciseCoverage'); // resets the counters
      await ask(ext(), model, [user('What does the trim keep?')]);
      const { result } = await post<{ result: ScriptCoverage[] }>(session, 'Profiler.takePreciseCoverage');
      const files = productFilesRun(result);
      console.log(`    ${model}: ${files.length} product files`); if (process.env.FOOTPRINT_LIST) console.log(files.join("\n"));
      assert.ok(files.length > 10, 'the coverage saw the request');
      assert.ok(files.length <= CEILING[model], `${files.length} product files ran (ceiling ${CEILING[model]}):\n${files.join('\n')}`);
    });
  }
});
