// Browser test of whole chats in the real chat view: on each route (fake-large = Chat Completions,
// fake-responses, fake-messages, fake-native-gemini) a 10-turn `@opencode` chat with a pasted text on turn 2 and a
// typed `#file:` on turn 4, all in one page session; with AGENT=1 also VS Code's own agent (a bare prompt) on one
// model with a tool round trip (offline it stops at a Copilot sign-in). Checked on the fake server's recorded requests and the window's OpenCode.log:
//   one conversation id (`x-opencode-session`, Responses `prompt_cache_key`) per chat; the paste's text in every
//   later request, the file's from turn 4 on; each earlier user turn re-sent byte for byte; `cacheHit` >= 90% on
//   every turn after the first whose new text is small (not the paste or file turns themselves).
// Prints the figures (`# route …`) and `ok - …` / `not ok - …` per check; exit 0 when all passed.
// The window's settings name each native model's route (as a user of a loopback endpoint would) and leave the budget
// to the model, so the cut never moves here (report-ui.cjs covers moving cuts).
// The first chat reloads the window after turn RELOAD_AFTER (default 5; 0 = never): the rest of it is sent by a new
// extension host from the history VS Code restored.
// Env: URL, FAKE_BASE, LOGS (<user-data-dir>/logs), SETTINGS (User/settings.json), FOLDER (the workspace folder), SHOT_DIR, TIMEOUT_MS, ROUTES
//      (comma list of models, default all four), TURNS (default 10), AGENT=1 (also VS Code's agent; it needs a Copilot sign-in), CHROMIUM, PLAYWRIGHT_CORE.
const fs = require('fs');
const path = require('path');
const { launchBrowser, control, copyToClipboard, logsNewestFirst } = require('./browser.cjs');

const INPUT = '.interactive-input-part .native-edit-context, .interactive-input-part .monaco-editor textarea';
const MODELS = (process.env.ROUTES || 'fake-large,fake-responses,fake-messages,fake-native-gemini').split(',').filter(m => m && m !== 'none');
const TURNS = Number(process.env.TURNS || 10);
const PASTE_MARKER = 'SESSION_PASTE_4417';
const FILE_MARKER = 'SESSION_FILE_9023';
const WORDS = 'amber basalt cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon'.split(' ');
/** A few thousand tokens of distinct text, so later turns' new text is small next to the history. */
const block = (marker, seed, lines) => Array.from({ length: lines }, (_, l) =>
  `${marker} ${l}: ${Array.from({ length: 16 }, (_, w) => WORDS[(seed + l * 5 + w * 7) % WORDS.length]).join(' ')}`).join('\n');
const PASTE = block(PASTE_MARKER, 1, 160);
const FILE_TEXT = block(FILE_MARKER, 2, 160);
const HIT_MIN = 90;
const t0 = Date.now();
const log = (...a) => console.log(`[chat-session +${Date.now() - t0}ms]`, ...a);

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

async function requests() {
  const recorded = await control('requests');
  return (Array.isArray(recorded) ? recorded : recorded.requests || []).filter(r => r.method === 'POST' && !/\/models$/.test(r.path));
}
const conversationOf = r => [r.headers?.['x-opencode-session'], r.body?.prompt_cache_key].filter(Boolean);
const userItems = r => (r.body.input || r.body.contents || r.body.messages || []).filter(m => m.role === 'user')
  .map(m => JSON.stringify(m, (k, v) => (k === 'cache_control' ? undefined : v)));

/** The chat input that is on screen (a chat editor and the chat view may both have one). */
const visibleInput = page => page.locator(INPUT).filter({ visible: true }).first();

async function responses(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('.interactive-item-container.interactive-response')).map(e => e.innerText));
}

/**
 * Until this window's extension host registered @opencode (its "[participant] … available in chat" line): typed
 * earlier, "@opencode" is plain text and the prompt goes to VS Code's own agent.
 */
async function participantReady(page, since) {
  for (let i = 0; i < 120; i++) {
    if (linesSince(since).some(l => l.includes('[participant]') && l.includes('available in chat'))) { await page.waitForTimeout(1500); return true; }
    await page.waitForTimeout(500);
  }
  return false;
}

/** Types one turn (optionally pasting text after it), sends it and waits until `answer` is on screen. */
async function send(page, typed, answer, { paste, replies, waitMs = 45000 } = {}) {
  const input = visibleInput(page);
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
    if ((await responses(page)).some(text => text.includes(answer))) return true;
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
  const labels = new RegExp(`^(Models|Auto|${MODELS.join('|')}|fake-[a-z-]+)$`);
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

/** One 10-turn @opencode chat; returns its figures. */
async function opencodeChat(page, model, check, reloadAfter) {
  const picked = await newChat(page, model);
  check(picked, `${model}: picked in the chat view`);
  await control('reset', {});
  const turns = [];
  for (let t = 1; t <= TURNS; t++) {
    if (reloadAfter > 0 && t === reloadAfter + 1) {
      // A restart of the window: a new extension host; the chat comes back from VS Code's storage.
      // VS Code stores chats on a debounce: reloading right after an answer can lose that turn from the history.
      await page.waitForTimeout(Number(process.env.RELOAD_SETTLE_MS || 8000));
      const mark = logMark();
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
      const back = await visibleInput(page).waitFor({ state: 'visible', timeout: 60000 }).then(() => true, () => false);
      check(back && await participantReady(page, mark), `${model}: the chat is back after reloading the window before turn ${t}`);
      if (!back) return turns;
    }
    const before = logMark();
    const answer = `Answer ${t} from ${model}.`;
    // Each chat opens differently (as real chats do): two chats with the same opening share their first request's id.
    const typed = t === 1 ? `@opencode Turn 1: a first question for ${model}.` : t === 2 ? `@opencode Turn 2: summarise the pasted text ` : t === 4 ? `@opencode Turn 4: explain #file:session-notes.txt please` : `@opencode Turn ${t}: one short question.`;
    let ok = await send(page, typed, answer, { paste: t === 2 ? PASTE : undefined });
    if (!ok && t === 1) { log('no first answer (models still resolving?); once more'); await control('reset', {}); ok = await send(page, typed, answer); }
    const usage = usageOf(linesSince(before));
    turns.push({ t, ok, usage: usage[usage.length - 1] });
    if (!ok) { check(false, `${model}: turn ${t} answered`); return turns; }
  }
  check(turns.every(x => x.ok), `${model}: ${TURNS} turns answered`);
  const sent = (await requests()).filter(r => JSON.stringify(r.body).includes(`Turn 1: a first question for ${model}.`));
  check(sent.length === TURNS, `${model}: one request per turn`, `${sent.length}`);
  const ids = new Set(sent.flatMap(conversationOf));
  check(ids.size === 1, `${model}: one conversation id throughout`, [...ids].join(', '));
  const pasteIn = sent.slice(1).filter(r => JSON.stringify(r.body).includes(`${PASTE_MARKER} 159`)).length;
  check(pasteIn === TURNS - 1, `${model}: the paste's text in every request from turn 2 on`, `${pasteIn}/${TURNS - 1}`);
  const fileIn = sent.slice(3).filter(r => JSON.stringify(r.body).includes(`${FILE_MARKER} 159`)).length;
  check(fileIn === TURNS - 3, `${model}: the file's text in every request from turn 4 on`, `${fileIn}/${TURNS - 3}`);
  const own = sent.map(r => userItems(r).at(-1));
  const resent = sent.every((r, j) => userItems(r).slice(0, j).every((item, k) => item === own[k]));
  check(resent, `${model}: every earlier user turn re-sent byte for byte`);
  const held = turns.filter(x => x.t > 1 && x.t !== 2 && x.t !== 4);
  const low = held.filter(x => !x.usage || x.usage.hit < HIT_MIN);
  check(low.length === 0, `${model}: cacheHit >= ${HIT_MIN}% on every turn after the first but the paste and file turns`,
    low.map(x => `turn ${x.t}: ${x.usage ? x.usage.hit : 'no usage'}%`).join(', '));
  console.log(`# ${model}: cacheHit per turn ${turns.map(x => (x.usage ? `${x.usage.hit}%` : '-')).join(' ')}; prompt tokens ${turns.map(x => x.usage?.prompt ?? '-').join(' ')}`);
  return turns;
}

/** Fills a tool's required parameters from its schema, so a scripted call is valid. */
function argumentsFor(tool) {
  const schema = tool.function?.parameters || tool.parameters || tool.input_schema || {};
  const out = {};
  for (const key of schema.required || []) {
    const type = schema.properties?.[key]?.type;
    out[key] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? false : type === 'array' ? [] : type === 'object' ? {} : 'README.md';
  }
  return out;
}

/** VS Code's own agent (a bare prompt) with an OpenCode model: turns, then a tool round trip. */
async function agentChat(page, model, check) {
  await newChat(page, model);
  await control('reset', {});
  const before = logMark();
  // The agent first waits for a GitHub sign-in that cannot happen offline ("Getting chat ready…"), then goes on
  // with the picked model.
  const ok1 = await send(page, 'Agent turn 1: say hello.', 'Agent answer 1.', { waitMs: Number(process.env.AGENT_WAIT_MS || 150000) });
  let ok = ok1;
  check(ok, `agent (${model}): a bare prompt is answered`);
  if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'agent-1.png') }).catch(() => {});
  const first = (await requests()).find(r => JSON.stringify(r.body).includes('Agent turn 1'));
  const tools = first?.body?.tools || [];
  check(tools.length > 0, `agent (${model}): the request carries VS Code's tools`, `${tools.length} tools`);
  const names = tools.map(t => t.function?.name || t.name);
  log(`agent tools: ${names.join(', ')}`);
  const safe = tools.find(t => /list_dir|read_file|file_search|todo/i.test(t.function?.name || t.name)) || tools[0];
  if (!safe) return;
  const name = safe.function?.name || safe.name;
  const args = JSON.stringify(argumentsFor(safe));
  log(`tool round trip with ${name} ${args}`);
  ok = await send(page, 'Agent turn 2: use a tool.', 'Agent answer 2 after the tool.', {
    replies: [{ toolCalls: [{ id: 'call_e2e_1', name, arguments: args }] }, { text: 'Agent answer 2 after the tool.' }],
  });
  check(ok, `agent (${model}): the answer after the tool call is on screen`);
  const sent = (await requests()).filter(r => JSON.stringify(r.body).includes('Agent turn 1'));
  const result = sent.find(r => (r.body.messages || []).some(m => m.role === 'tool' && m.tool_call_id === 'call_e2e_1'));
  check(!!result, `agent (${model}): the tool result went back with the call id`);
  const ids = new Set(sent.flatMap(conversationOf));
  check(ids.size === 1, `agent (${model}): one conversation id`, [...ids].join(', '));
  ok = await send(page, 'Agent turn 3: and now?', 'Agent answer 3.');
  if (process.env.SHOT_DIR) fs.writeFileSync(path.join(process.env.SHOT_DIR, 'agent-requests.json'), JSON.stringify(await requests(), null, 1));
  const usage = usageOf(linesSince(before));
  check(usage.length >= 3, `agent (${model}): [usage] lines`, `${usage.length}`);
  const later = usage.slice(1);
  console.log(`# agent ${model}: cacheHit per request ${usage.map(u => `${u.hit}%`).join(' ')}; prompt tokens ${usage.map(u => u.prompt).join(' ')}`);
  check(ok && later.every(u => u.hit >= HIT_MIN), `agent (${model}): cacheHit >= ${HIT_MIN}% after the first request`, later.map(u => `${u.hit}%`).join(' '));
}

async function main() {
  const timeout = Number(process.env.TIMEOUT_MS || 90000);
  fs.writeFileSync(path.join(process.env.FOLDER, 'session-notes.txt'), `${FILE_TEXT}\n`);
  const settings = JSON.parse(fs.readFileSync(process.env.SETTINGS, 'utf8'));
  delete settings['opencode.maxInputTokens'];
  settings['opencode.models'] = { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } };
  if (process.env.AGENT === '1') Object.assign(settings, JSON.parse(process.env.AGENT_SETTINGS || '{}'));
  fs.writeFileSync(process.env.SETTINGS, JSON.stringify(settings, null, 2));
  const context = await launchBrowser();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(process.env.URL).origin });
  const page = context.pages()[0] || await context.newPage();
  const results = [];
  const check = (ok, name, detail = '') => { results.push(ok); console.log(`${ok ? 'ok' : 'not ok'} - chat session: ${name}${detail ? ` (${detail})` : ''}`); };
  try {
    const opened = logMark();
    await page.goto(process.env.URL, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout });
    log(await participantReady(page, opened) ? '@opencode registered' : 'no [participant] line yet');
    const input = visibleInput(page);
    if (!(await input.isVisible().catch(() => false))) await runCommand(page, 'Chat: Open Chat');
    await input.waitFor({ state: 'visible', timeout });
    const reloadAfter = Number(process.env.RELOAD_AFTER ?? 5);
    for (const [i, model] of MODELS.entries()) {
      const started = Date.now();
      await opencodeChat(page, model, check, i === 0 ? reloadAfter : 0);
      log(`${model}: ${Math.round((Date.now() - started) / 1000)} s`);
      if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, `session-${model}.png`) }).catch(() => {});
    }
    // Opt-in: offline, code-server 1.139 answers a bare prompt with "You need to set up GitHub Copilot and be signed
    // in to use Chat." (docs/testing-in-vscode.md); the agent's path through the provider is unit-tested.
    if (process.env.AGENT === '1') await agentChat(page, 'fake-large', check);
  } catch (e) {
    check(false, 'harness', String(e && e.message || e).split('\n')[0]);
  }
  if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'session-end.png') }).catch(() => {});
  await context.close().catch(() => {});
  return results.length && results.every(Boolean) ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error('[chat-session] harness error:', e); process.exit(2); });
