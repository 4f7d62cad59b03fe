/** Paths the speed probes need, from the compiled location out/bench/speed/. */
import * as path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const DIST_EXTENSION = path.join(REPO_ROOT, 'dist', 'extension.js');
export const VSCODE_DOUBLE_HOOK = path.join(REPO_ROOT, 'out', 'test', 'support', 'registerVscodeDouble.js');
export const VSCODE_DOUBLE = path.join(REPO_ROOT, 'out', 'test', 'support', 'vscodeDouble.js');
export const VSIX = path.join(REPO_ROOT, 'opencode-chat-provider.vsix');
export const DOCS_DIR = path.join(REPO_ROOT, 'docs');
export const BENCH_DOCS_DIR = path.join(DOCS_DIR, 'benchmarks');
