/**
 * Run as a child process (a fresh Node, nothing loaded): requires the production bundle with the shared
 * vscode test double injected the way the mocha hook does it, times activate(), then times the first
 * token count (which loads the tokenizer bundle lazily) and a second one. Prints one JSON line.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { performance } from 'perf_hooks';
import { DIST_EXTENSION, VSCODE_DOUBLE, VSCODE_DOUBLE_HOOK } from './repoPaths';
import { runAsChildProbe } from './childProbe';

interface VscodeDouble {
  settingsStore: Map<string, unknown>;
  registeredProviders: Map<string, { provideTokenCount(model: unknown, text: string, token: unknown): Promise<number> }>;
  createExtensionContext(logDir: string): { subscriptions: { dispose(): void }[] };
}

export interface ActivationTimes {
  requireMs: number;
  activateMs: number;
  firstTokenCountMs: number;
  secondTokenCountMs: number;
}

async function probe(): Promise<ActivationTimes> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- runtime path: installs the vscode double's resolve hook
  require(VSCODE_DOUBLE_HOOK);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same module instance the hook resolves 'vscode' to
  const double = require(VSCODE_DOUBLE) as VscodeDouble;
  // Loopback only: activation must not reach for a real endpoint.
  double.settingsStore.set('baseUrl', 'http://127.0.0.1:9/v1');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-bench-'));
  const context = double.createExtensionContext(logDir);

  let started = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the bundle is what is timed
  const extension = require(DIST_EXTENSION) as { activate(context: unknown): void };
  const requireMs = performance.now() - started;
  started = performance.now();
  extension.activate(context);
  const activateMs = performance.now() - started;

  const provider = double.registeredProviders.get('opencode');
  if (!provider) throw new Error('activate() registered no provider');
  const model = { id: 'bench-model', name: 'bench', family: 'bench', version: '1', maxInputTokens: 100_000, maxOutputTokens: 1_000, capabilities: {} };
  started = performance.now();
  await provider.provideTokenCount(model, 'hello world, how many tokens is this?', undefined);
  const firstTokenCountMs = performance.now() - started;
  started = performance.now();
  await provider.provideTokenCount(model, 'and this one, now that the tokenizer is loaded?', undefined);
  const secondTokenCountMs = performance.now() - started;

  for (const disposable of context.subscriptions) disposable.dispose();
  fs.rmSync(logDir, { recursive: true, force: true });
  return { requireMs, activateMs, firstTokenCountMs, secondTokenCountMs };
}

if (require.main === module) runAsChildProbe(probe);
