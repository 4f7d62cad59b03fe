/**
 * package.json is the one source of the version: unbundled, version.ts reads it; bundled, the build's `define`
 * writes it in and the file is never read (the bundle runs from dist/, where no relative package.json lookup holds).
 */
import * as assert from 'assert';
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as path from 'path';
import { EXTENSION_VERSION } from '../core/request/version';

const root = path.join(__dirname, '..', '..');

describe('the extension version', () => {
  it('unbundled, it is package.json\'s', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    assert.strictEqual(EXTENSION_VERSION, pkg.version);
  });

  it('bundled, it is the defined value and package.json is not read', () => {
    const built = esbuild.buildSync({
      entryPoints: [path.join(root, 'src', 'core', 'request', 'version.ts')],
      bundle: true, platform: 'node', format: 'cjs', write: false,
      define: { __OPENCODE_VERSION__: JSON.stringify('9.8.7-test') },
    });
    const module = { exports: {} as { EXTENSION_VERSION?: string } };
    // A __dirname with no package.json above it: reading the file would throw.
    new Function('module', 'exports', 'require', '__dirname', built.outputFiles[0].text)(module, module.exports, require, '/nonexistent/a/b/c');
    assert.strictEqual(module.exports.EXTENSION_VERSION, '9.8.7-test');
  });
});
