/**
 * `core/request` and `core/answer` are route-neutral (docs/architecture.md): they import no route folder and name
 * no route, so every rule they hold applies to every route alike, and a route's own behaviour lives in its folder.
 * So are the folders around them (warming, settings, cost, saved state, commit messages, inline
 * suggestions, conversation ids, images). A route is named only in core/routes, the model facts (core/models: which
 * route a model takes) and the few places still listed in docs/architecture.md (issue: one-way shape).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROUTE_IDS } from '../core/routeId';

const SRC = path.join(__dirname, '..', '..', 'src', 'core');

function sources(folder: string): { file: string; text: string }[] {
  const dir = path.join(SRC, folder);
  return fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => ({ file: `${folder}/${f}`, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** Code without its comments (a comment may mention a route to explain a rule). */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe('route-neutral folders name no route', () => {
  for (const folder of ['request', 'answer', 'warming', 'config', 'cost', 'state', 'commit', 'inline', 'session', 'images']) {
    it(`core/${folder} imports no route folder`, () => {
      const offenders = sources(folder).flatMap(({ file, text }) =>
        [...code(text).matchAll(/from '([^']+)'/g)].map((m) => m[1]).filter((spec) => ROUTE_IDS.some((id) => spec.includes(`routes/${id}/`))).map((spec) => `${file}: ${spec}`),
      );
      assert.deepStrictEqual(offenders, []);
    });

    it(`core/${folder} has no route name in its code (no route-specific if)`, () => {
      const names = new RegExp(`(['"\`])(${ROUTE_IDS.join('|')})\\1`);
      const offenders = sources(folder).flatMap(({ file, text }) => code(text).split('\n').filter((line) => names.test(line)).map((line) => `${file}: ${line.trim()}`));
      assert.deepStrictEqual(offenders, []);
    });
  }
});
