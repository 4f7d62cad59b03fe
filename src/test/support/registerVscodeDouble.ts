/**
 * Mocha `--require` hook: makes `require('vscode')` resolve to the one shared test double, so adapter code
 * can run under plain mocha. Core modules never import vscode and do not need it.
 */
import Module from 'module';
import * as path from 'path';

const doublePath = path.join(__dirname, 'vscodeDouble.js');
type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleWithResolve = Module as unknown as { _resolveFilename: Resolve };
const originalResolve = moduleWithResolve._resolveFilename;
moduleWithResolve._resolveFilename = function (request: string, ...rest: unknown[]): string {
  if (request === 'vscode') return doublePath;
  return originalResolve.call(this, request, ...rest);
};

// An activated extension checks live model data in the background: never the real models.dev from a test
// (port 9 on loopback refuses at once); the live-data tests run their own stand-in.
process.env.OPENCODE_MODEL_DATA_URL ??= 'http://127.0.0.1:9/api.json';
