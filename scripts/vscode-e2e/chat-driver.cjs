/**
 * Driving the real chat view and reading what came of it, shared by chat-session.cjs (`@opencode` chats) and
 * agent-chat.cjs (VS Code's own agent): typing and sending turns, the model picker, new chats; the fake server's
 * recorded requests; the window's OpenCode.log (`[usage]` lines, where the log stood before a turn).
 */
const fs = require('fs');
const path = require('path');
const { control, copyToClipboard, logsNewestFirst } = require('./browser.cjs');

const INPUT = '.interactive-input-part .native-edit-context, .interactive-input-part .monaco-editor textarea';
const t0 = Date.now();
const tag = path.basename(process.argv[1] || 'chat', '.cjs');
const log = (...a) => console.log(`[${tag} +${Date.now() - t0}ms]`, ...a);

/** The lines of the most recently written OpenCode log (this window's extension host). */
function logLines() {
  const [newest] = logsNewestFirst(process.env.LOGS);
  return newest ? fs.readFileSync(newest, 'utf8').split('\n') : [];
}
/** Where the window's log stands, and the lines written since (a reload starts a new extension host and log file). */
function logMark() {
  const [file] = logsNewestFirst(process.env.LOGS);
  return { file, length: file ? fs.readFileSync(file, 'utf8').split('\n').length : 0 };
}
function linesSince(mark) {
  const now = logMark();
  return logLines().slice(now.file === mark.file ? Math.max(0, mark.length - 1) : 0);
}
const usageOf = lines => lines.filter(l => l.includes('[usage] ')).map(l => {
  const m = /prompt=(\d+) .*cached=(\d+) cacheHit=([\d.]+)%/.exec(l);
  return m ? { prompt: Number(m[1]), cached: Number(m[2]), hit: Number(m[3]) } : undefined;
}).filter(Boolean);

/** The chat requests the fake server recorded since its last reset (the model list left out). */
async function requests() {
  const recorded = await control('requests');
  return (Array.isArray(recorded) ? recorded : recorded.requests || []).filter(r => r.method === 'POST' && !/\/models$/.test(r.path));
}
const conversationOf = r => [r.headers?.['x-opencode-session'], r.body?.prompt_cache_key].filter(Boolean);

/** The chat input that is on screen (a chat editor and the chat view may both have one). */
const visibleInput = page => page.locator(INPUT).filter({ visible: true }).first();

async function responses(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('.interactive-item-container.interactive-response')).map(e => e.innerText));
}

/**
 * Until this window's extension host registered @opencode (its "[participant] … available in chat" line): typed
 * earlier, "@opencode" is plain text and the prompt goes to VS Code's own agent. The line also means the OpenCode
 * models are listed, so the model picker offers them.
 */
async function participantReady(page, since) {
  for (let i = 0; i < 120; i++) {
    if (linesSince(since).some(l => l.includes('[participant]') && l.includes('available in chat'))) { await page.waitForTimeout(1500); return true; }
    await page.waitForTimeout(500);
  }
  return false;
}

/**
 * Types one turn (optionally pasting text after it), sends it and waits until a response on screen satisfies
 * `answer` (a text it includes, or a RegExp). `replies` are queued on the fake server first (default: `answer`).
 */
async function send(page, typed, answer, { paste, replies, waitMs = 45000 } = {}) {
  const input = visibleInput(page);
  const seen = text => (answer instanceof RegExp ? answer.test(text) : text.includes(answer));
  for (const reply of replies || [{ text: answer }]) await control('reply', reply);
  await input.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(typed);
  await page.keyboard.press('Escape'); // a completion list (after `#file:`) would take the Enter
  if (paste) {
    log(`clipboard: ${await copyToClipboard(page, paste)}`);
    await input.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Control+V');
    await page.waitForTimeout(600);
  }
  await input.focus();
  await page.keyboard.press('Enter');
  const end = Date.now() + waitMs;
  while (Date.now() < end) {
    // Every answer is distinct; the list is virtualised (older turns leave the DOM), so no counting.
    if ((await responses(page)).some(seen)) return true;
    // A tool that asks first: allow it (VS Code's agent). The Copilot sign-in dialog: dismiss it (offline).
    await page.locator('.interactive-response .monaco-button').filter({ hasText: /^(Allow|Continue)$/ }).first().click({ timeout: 200 }).catch(() => {});
    if (await page.getByText('Sign in to use GitHub Copilot').first().isVisible().catch(() => false)) {
      log('the Copilot sign-in dialog is open; dismissing it');
      await page.locator('.monaco-dialog-box .dialog-close, .monaco-dialog-box .codicon-dialog-close, .monaco-dialog-box [aria-label="Close"]').first().click({ timeout: 1000 }).catch(() => page.keyboard.press('Escape'));
    }
    await page.waitForTimeout(250);
  }
  return false;
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  await page.waitForTimeout(500);
  await page.keyboard.type(title);
  await page.waitForTimeout(700);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(800);
}

/** The text of the input part around the chat input on screen (its model picker shows the picked model). */
const inputPartText = page => visibleInput(page).evaluate(e => e.closest('.interactive-input-part')?.textContent || '').catch(() => '');

/** Opens the model picker and chooses `name`, until the input part on screen shows it. */
async function pickModel(page, name) {
  const shows = async () => (await inputPartText(page)).includes(name);
  const labels = /^(Models|Auto|fake-[a-z-]+)$/;
  // The picker is a popup with a "Search models" box (VS Code 1.139); never type into the chat input instead.
  const pickerFocused = () => page.evaluate(() => {
    const el = document.activeElement;
    return !!el && !el.closest('.interactive-input-part') && (!!el.closest('.context-view, .quick-input-widget, .action-widget') || /search models/i.test(el.getAttribute('placeholder') || ''));
  });
  for (let i = 0; i < 6 && !(await shows()); i++) {
    const part = visibleInput(page).locator('xpath=ancestor::*[contains(@class,"interactive-input-part")][1]');
    await part.getByText(labels).first().click({ force: true, timeout: 2000 }).catch(() => {});
    await page.waitForTimeout(800);
    if (i === 0 && process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, `picker-${name}.png`) }).catch(() => {});
    const row = page.locator('.context-view .monaco-list-row, .quick-input-list .monaco-list-row, .action-widget .monaco-list-row').filter({ hasText: name }).first();
    if (await row.isVisible().catch(() => false)) await row.click({ force: true, timeout: 2000 }).catch(() => {});
    else if (await pickerFocused()) {
      // The picker is open but the row is not rendered (a long list): filter it by typing. Never into the chat input.
      await page.keyboard.type(name); await page.waitForTimeout(400); await page.keyboard.press('Enter');
    }
    await page.waitForTimeout(600);
    if (!(await shows()) && await pickerFocused()) await page.keyboard.press('Escape');
  }
  return shows();
}

async function newChat(page, model) {
  await runCommand(page, 'Chat: New Chat');
  const input = visibleInput(page);
  await input.waitFor({ state: 'visible', timeout: 20000 });
  const picked = await pickModel(page, model);
  log(picked ? `new chat with ${model}` : `the picker does not show ${model}`);
  return picked;
}

/** Opens the workbench at URL and waits until the chat input is on screen and @opencode is registered. */
async function openWorkbench(page, timeout) {
  const opened = logMark();
  await page.goto(process.env.URL, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('.monaco-workbench', { timeout });
  log(await participantReady(page, opened) ? '@opencode registered' : 'no [participant] line yet');
  const input = visibleInput(page);
  if (!(await input.isVisible().catch(() => false))) await runCommand(page, 'Chat: Open Chat');
  await input.waitFor({ state: 'visible', timeout });
}

module.exports = {
  log, logMark, linesSince, usageOf, requests, conversationOf, visibleInput, participantReady, send, newChat, openWorkbench,
};
