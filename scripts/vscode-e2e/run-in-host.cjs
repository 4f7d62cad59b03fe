// Runs the extension tests (out/e2e/index.js, which exports run()) inside the REAL remote extension host of
// code-server, the same contract as @vscode/test-electron: headless Chromium opens the workbench with
// extensionDevelopmentPath + extensionTestsPath in the URL payload (code-server must run with
// --vscode-option enable-smoke-test-driver, else the payload is ignored). The extension host's console comes back
// through window.codeAutomationLog and run()'s outcome through window.codeAutomationExit(code).
// Env: BASE (http://127.0.0.1:PORT), FOLDER (workspace folder), EXT_DEV (extension folder: an empty one makes the
//      installed .vsix the extension under test), TESTS (test module), TIMEOUT_MS (default 240000),
//      SHOT (screenshot path, optional), CHROMIUM (default /usr/bin/chromium), PLAYWRIGHT_CORE.
// Exit code: 0 when run() resolved, 1 when it rejected or timed out, 2 on a harness error.
const path = require('path');
const { launchBrowser } = require('./browser.cjs');


async function main() {
  const t0 = Date.now();
  const base = process.env.BASE || 'http://127.0.0.1:8765';
  const remote = p => `vscode-remote://${new URL(base).host}${path.resolve(p)}`;
  const payload = [['extensionDevelopmentPath', remote(process.env.EXT_DEV)], ['extensionTestsPath', remote(process.env.TESTS)]];
  const url = `${base}/?folder=${encodeURIComponent(process.env.FOLDER)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const timeout = Number(process.env.TIMEOUT_MS || 240000);
  const context = await launchBrowser();
  const page = context.pages()[0] || await context.newPage();
  let resolveExit;
  const exited = new Promise(r => { resolveExit = r; });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = (Array.isArray(args) ? args : [args]).map(a => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    // Plain lines for log/info so "N passed, N failed" stands alone; a marker for warnings and errors.
    console.log(type === 'error' || type === 'warn' ? `[exthost ${type}] ${text}` : text);
  });
  await page.exposeFunction('codeAutomationExit', code => resolveExit(code));
  page.on('pageerror', e => console.log(`[run-in-host] page error: ${String(e).slice(0, 300)}`));
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  console.log(`[run-in-host] workbench page loaded after ${Date.now() - t0} ms`);
  let timer;
  const code = await Promise.race([exited, new Promise(r => { timer = setTimeout(() => r('timeout'), timeout); })]);
  clearTimeout(timer);
  console.log(`[run-in-host] extension tests finished with exit code ${code} after ${Date.now() - t0} ms`);
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT }).catch(() => {});
  await context.close().catch(() => {});
  return code === 0 ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error('[run-in-host] harness error:', e); process.exit(2); });
