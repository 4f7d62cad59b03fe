/**
 * What the browser-driven e2e scripts share: a headless Chromium with a throw-away profile and $HOME (Chromium
 * writes crash reports under $HOME even with a user-data-dir), and the fake server's control routes.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** A persistent Chromium context in a scratch folder that is removed when the process exits. */
async function launchBrowser() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-e2e-chromium-'));
  process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
  process.env.HOME = scratch;
  return chromium.launchPersistentContext(path.join(scratch, 'profile'), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: BROWSER_ARGS,
    viewport: { width: 1400, height: 900 },
  });
}

/** GET (no body) or POST a JSON body to the fake server's /_control/<route>. */
async function control(route, body) {
  const res = await fetch(`${process.env.FAKE_BASE}/_control/${route}`, body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`/_control/${route}: HTTP ${res.status}`);
  return res.json().catch(() => ({}));
}

/** Puts `text` on the clipboard for a Ctrl+V into the chat: the async clipboard API needs a focused document, the copy command is the fallback. */
async function copyToClipboard(page, text) {
  return page.evaluate(async t => {
    try { await navigator.clipboard.writeText(t); return 'clipboard API'; } catch (e) {
      const area = document.createElement('textarea');
      area.value = t; document.body.appendChild(area); area.select();
      const ok = document.execCommand('copy'); area.remove();
      return ok ? 'copy command' : `failed: ${e.message}`;
    }
  }, text);
}

/** Every `*OpenCode.log` under `dir` (a profile's logs folder; each window session and extension host has its own). */
function findLogs(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findLogs(full));
    else if (entry.name.endsWith('OpenCode.log')) out.push(full);
  }
  return out;
}

/** The OpenCode logs under `dir`, most recently written first. */
const logsNewestFirst = dir => findLogs(dir).map(f => ({ f, t: fs.statSync(f).mtimeMs })).sort((a, b) => b.t - a.t).map(x => x.f);

module.exports = { launchBrowser, control, copyToClipboard, findLogs, logsNewestFirst };
