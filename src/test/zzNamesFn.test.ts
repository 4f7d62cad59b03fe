/**
 * How much of the product one chat request runs (issue 30's measure): V8's precise coverage, taken around one short
 * answer per route through the activated extension over real HTTP, counts the compiled product files that ran any
 * function. A ratchet: it fails when a route's request grows past its figure below (lower the figure when a change
 * shrinks it; the goal is 50 — docs/architecture.md).
 */
import * as assert from 'assert';
import * as inspector from 'inspector';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

/** Files that ran per route, measured 2026-12-02 on main; the request after a first one warmed every lazy path. */
const CEILING: Record<string, number> = { 'fake-large': 100, 'fake-responses': 95, 'fake-messages': 97, 'fake-native-gemini': 96 };
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
    if (product && script.functions.some((f) => f.ranges[0]?.count > 0)) { files.add(file); if (/models|select/.test(file)) console.log("FN", file, (script.functions as any[]).filter((f) => f.ranges[0]?.count > 0).map((f) => f.functionName).join(",")); }
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
