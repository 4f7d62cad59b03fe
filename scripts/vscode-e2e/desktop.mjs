// The same in-host suite (out/e2e/index.js) on desktop VS Code through @vscode/test-electron, for a developer
// machine with a display (or xvfb-run) and access to update.code.visualstudio.com, which the CI sandbox lacks.
// It tests the SOURCE tree as the development extension (dist/ must be built), not a packaged .vsix.
// The chat-view browser test (chat-ui.cjs) is code-server only.
//   npx tsc -p . && node scripts/build.mjs && node scripts/vscode-e2e/desktop.mjs
// Env: VSCODE_VERSION (default "stable"), VSCODE_EXECUTABLE (use this installed VS Code instead of downloading),
//      OPENCODE_E2E_GREP (only the matching tests).
/* global process, console */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Starts the fake OpenAI-compatible server and resolves with its process and base URL. */
function startFakeServer() {
  const child = spawn(process.execPath, [join(repo, 'out/fakeServer/cli.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveStart, reject) => {
    child.once('exit', code => reject(new Error(`fake server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', line => {
      const m = /^FAKE_OPENCODE_URL=(\S+)/.exec(line);
      if (m) resolveStart({ child, url: m[1] });
    });
  });
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'opencode-desktop-e2e-'));
  const userData = join(scratch, 'user-data');
  const fake = await startFakeServer();
  try {
    mkdirSync(join(userData, 'User'), { recursive: true });
    writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({
      'opencode.baseUrl': fake.url,
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'extensions.autoUpdate': false,
    }, null, 2));
    delete process.env.OPENCODE_API_KEY; // the missing-key test needs a key-less extension host
    const workspace = join(scratch, 'ws');
    mkdirSync(workspace);
    await runTests({
      version: process.env.VSCODE_VERSION || 'stable',
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
      extensionDevelopmentPath: repo,
      extensionTestsPath: join(repo, 'out/e2e/index.js'),
      extensionTestsEnv: {
        OPENCODE_E2E_FAKE_URL: fake.url,
        OPENCODE_E2E_LOGS: join(userData, 'logs'),
        OPENCODE_E2E_GREP: process.env.OPENCODE_E2E_GREP || '',
      },
      launchArgs: [workspace, '--user-data-dir', userData, '--extensions-dir', join(scratch, 'extensions')],
    });
    return 0;
  } catch (error) {
    console.error(`desktop e2e failed: ${error instanceof Error ? error.message : error}`);
    return 1;
  } finally {
    fake.child.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
