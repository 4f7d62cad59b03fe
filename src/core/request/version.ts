/**
 * The extension's version, sent in User-Agent and x-opencode-client. package.json is the one source: the build
 * writes its version in (scripts/build.mjs, `define`); unbundled (tests, bench, replay) it is read from package.json.
 */
import * as fs from 'fs';
import * as path from 'path';

declare const __OPENCODE_VERSION__: string | undefined;

function packageVersion(): string {
  // out/core/request → the repository root, where package.json is.
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

export const EXTENSION_VERSION: string = typeof __OPENCODE_VERSION__ === 'string' ? __OPENCODE_VERSION__ : packageVersion();
