// Browser test of what a user sees after chatting: pastes a multi-line text into the chat view for `@opencode`
// (Ctrl+V, which the chat view turns into a "Pasted text" attachment) and checks that the fake server received
// that text; then reads the OpenCode status bar item from the workbench DOM and compares its cache hit and fill
// with the last `[usage]` line of this window's OpenCode.log; clicks it, reads the session report webview (totals
// equal the log's request count, the chart has bars), runs a what-if and writes it to the user settings.
// Env: URL, FAKE_BASE, LOGS (<user-data-dir>/logs), SETTINGS (User/settings.json), SHOT_DIR, TIMEOUT_MS, CHROMIUM,
//      PLAYWRIGHT_CORE. Prints `ok - …` / `not ok - …` per check; exit 0 when all passed.
const fs = require('fs');
const path = require('path');
const { launchBrowser, control, copyToClipboard, findLogs } = require('./browser.cjs');

const INPUT = '.interactive-input-part .native-edit-context, .interactive-input-part .monaco-editor textarea';
const MARKER = 'PASTE_MARKER_7731';
const PASTE = Array.from({ length: 60 }, (_, i) => `line ${i + 1}: const value${i} = compute(${i}); // ${MARKER}`).join('\n');
const WORDS = 'apple river stone cloud maple orbit lantern harbor violet meadow copper signal'.split(' ');
/** About 700 tokens of different text for each turn, pasted (typing it would take long). */
const filler = turn => Array.from({ length: 35 }, (_, l) => Array.from({ length: 20 }, (_, w) => WORDS[(turn * 5 + l * 3 + w * 7) % WORDS.length]).join(' ')).join('\n');
const TURNS = 12;
const BUDGET = 6000;
const t0 = Date.now();
const log = (...a) => console.log(`[report-ui +${Date.now() - t0}ms]`, ...a);

/** The [usage] lines of the most recently written OpenCode log (this window's extension host). */
function usageLines() {
  const files = findLogs(process.env.LOGS).map(f => ({ f, t: fs.statSync(f).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { f } of files) {
    const lines = fs.readFileSync(f, 'utf8').split('\n').filter(l => l.includes('[usage] '));
    if (lines.length) return { file: f, lines };
  }
  return { file: '', lines: [] };
}

/** Lines matching `re` in the newest OpenCode log. */
function usageLinesOf(re) {
  const files = findLogs(process.env.LOGS).map(f => ({ f, t: fs.statSync(f).mtimeMs })).sort((a, b) => b.t - a.t);
  return files.length ? fs.readFileSync(files[0].f, 'utf8').split('\n').filter(l => re.test(l)) : [];
}

const compact = n => (n >= 1e6 ? `${(n / 1e6).toFixed(1).replace(/\.0$/, '')}M` : n >= 1000 ? `${Math.round(n / 1000)}K` : String(n));

async function send(page, typed, answer, paste) {
  const input = page.locator(INPUT).first();
  await control('reply', { text: answer });
  await input.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(typed);
  if (paste) {
    log(`clipboard: ${await copyToClipboard(page, paste)}`);
    await input.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Control+V');
    await page.waitForTimeout(800);
  }
  await page.keyboard.press('Enter');
  const end = Date.now() + 30000;
  while (Date.now() < end) {
    const seen = await page.evaluate(() => Array.from(document.querySelectorAll('.interactive-item-container.interactive-response')).map(e => e.innerText));
    if (seen.some(s => s.includes(answer))) return true;
    if (seen.length && /Language model unavailable/.test(seen[seen.length - 1])) return 'unavailable';
    await page.waitForTimeout(250);
  }
  return false;
}

/** On a fresh profile the picker may show just "Models"; open it and choose our model (best effort). */
async function pickModel(page, name) {
  const hasIt = () => page.evaluate(n => !!document.querySelector('.interactive-input-part')?.textContent?.includes(n), name);
  for (let i = 0; i < 16 && !(await hasIt()); i++) {
    if (i % 4 === 3) {
      await page.locator('.interactive-input-part').getByText(/^(Models|Auto|fake-large)$/).first().click({ force: true, timeout: 2000 }).catch(() => {});
      await page.waitForTimeout(800);
      await page.locator('.monaco-list-row').filter({ hasText: name }).first().click({ force: true, timeout: 2000 })
        .catch(() => page.keyboard.press('Escape'));
    }
    await page.waitForTimeout(500);
  }
  log(await hasIt() ? `model picker shows ${name}` : `model picker does not show ${name}; @opencode falls back to its first model`);
}

/** The report's frame; the page is re-rendered after each what-if, so look it up again each time. */
async function reportFrame(page, selector = '#totals') {
  for (let i = 0; i < 60; i++) {
    for (const frame of page.frames()) {
      if (await frame.$(selector).catch(() => null)) return frame;
    }
    await page.waitForTimeout(500);
  }
  return undefined;
}

async function main() {
  const timeout = Number(process.env.TIMEOUT_MS || 90000);
  const shots = process.env.SHOT_DIR || '.';
  const context = await launchBrowser();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(process.env.URL).origin });
  const page = context.pages()[0] || await context.newPage();
  const results = [];
  const check = (ok, name, detail = '') => { results.push(ok); console.log(`${ok ? 'ok' : 'not ok'} - report: ${name}${detail ? ` (${detail})` : ''}`); };
  try {
    // A small budget for this window (read when it opens), so the conversation reaches it and the cut moves.
    try {
      const settings = JSON.parse(fs.readFileSync(process.env.SETTINGS, 'utf8'));
      fs.writeFileSync(process.env.SETTINGS, JSON.stringify({ ...settings, 'opencode.maxInputTokens': BUDGET }, null, 2));
    } catch (e) { log(`could not set opencode.maxInputTokens: ${e.message}`); }
    await control('reset', {});
    await page.goto(process.env.URL, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout });
    const input = page.locator(INPUT).first();
    if (!(await input.isVisible().catch(() => false))) await page.keyboard.press('Control+Alt+KeyI');
    await input.waitFor({ state: 'visible', timeout });
    await pickModel(page, process.env.MODEL_NAME || 'fake-small');
    let answered = await send(page, '@opencode What does this pasted code do? ', 'It assigns values (answer one).', PASTE);
    if (answered === 'unavailable') {
      log('"Language model unavailable" on the first request (models still resolving); sending again');
      await control('reset', {});
      await page.waitForTimeout(2000);
      answered = await send(page, '@opencode What does this pasted code do? ', 'It assigns values (answer one).', PASTE);
    }
    check(answered === true, 'the pasted-text turn was answered');
    const recorded = await control('requests');
    const bodies = (Array.isArray(recorded) ? recorded : recorded.requests || []).map(r => r.body || r).filter(b => Array.isArray(b.messages));
    const sent = JSON.stringify(bodies[bodies.length - 1]?.messages || []);
    check(sent.includes(MARKER) && sent.includes('line 24'), 'the pasted text reached the fake server', `${(sent.match(new RegExp(MARKER, 'g')) || []).length} marker(s)`);
    const participant = usageLinesOf(/\[participant\] @opencode ->.*/).pop();
    log(`participant line: ${participant}`);
    let later = true;
    for (let t = 2; t <= TURNS && later; t++) later = (await send(page, `@opencode Turn ${t}: which words repeat here? `, `Words repeat (answer ${t}).`, filler(t))) === true;
    check(later, `turns 2-${TURNS} were answered`);

    await page.waitForTimeout(1000);
    const item = page.locator('.statusbar-item').filter({ hasText: /OpenCode .*%/ }).first();
    await item.waitFor({ state: 'visible', timeout: 15000 });
    const text = (await item.innerText()).trim();
    const { file, lines } = usageLines();
    const last = /prompt=(\d+) .*cacheHit=([\d.]+)%/.exec(lines[lines.length - 1] || '');
    const hit = last ? `${Math.round(Number(last[2]))}%` : '?';
    const fill = last ? compact(Number(last[1])) : '?';
    check(!!last && text.includes(hit) && text.includes(`${fill}/`), 'status bar shows the last [usage] hit and fill', `"${text}" vs ${lines[lines.length - 1]} in ${path.basename(path.dirname(file))}`);
    const box = await item.boundingBox();
    if (box) await page.screenshot({ path: path.join(shots, 'statusbar.png'), clip: { x: Math.max(0, box.x - 300), y: Math.max(0, box.y - 4), width: Math.min(700, box.width + 320), height: box.height + 8 } });

    await page.keyboard.press('Escape');
    await item.hover().catch(() => undefined);
    await page.waitForTimeout(1200);
    await page.screenshot({ path: path.join(shots, 'statusbar-tooltip.png') }).catch(() => undefined);
    // The tooltip's "conversation so far" is the sum of the [usage] lines' dollars (six decimals, zeros trimmed to four).
    const hover = await page.locator('.monaco-hover, .workbench-hover').first().innerText().catch(() => '');
    const spent = lines.reduce((sum, l) => sum + Number((/ cost[=≈]\$(\d+\.\d+)/.exec(l) || [])[1]), 0);
    const shown = `$${spent.toFixed(6).replace(/0{1,2}$/, '')}`;
    check(hover.includes('conversation so far') && hover.includes(shown), 'the tooltip shows the conversation\'s dollars: the sum of its [usage] lines', `${shown} in "${hover.replace(/\s+/g, ' ').slice(0, 300)}"`);
    await item.click();
    const frame = await reportFrame(page);
    check(!!frame, 'the session report opened');
    if (frame) {
      const requests = (await frame.$eval('[data-key="requests"]', e => e.textContent)).trim();
      const bars = await frame.$$eval('svg.chart rect.cached', r => r.length);
      check(requests === String(lines.length) && bars === lines.length, 'report totals and chart bars equal the log', `requests ${requests}, bars ${bars}, [usage] lines ${lines.length}`);
      await page.screenshot({ path: path.join(shots, 'report.png') });
      await frame.fill('#headroom', '300');
      await frame.fill('#step', '400');
      await frame.press('#step', 'Enter');
      const replayed = await reportFrame(page, '#whatif-result');
      const row = replayed ? await replayed.$eval('#whatif-result', t => t.innerText).catch(() => '') : '';
      if (replayed) await page.screenshot({ path: path.join(shots, 'report-whatif.png') });
      check(/chosen\s+300\s+400/.test(row), 'the what-if replays with the chosen values', row.replace(/\s+/g, ' ').slice(0, 160));
      const form = await reportFrame(page, '#apply');
      await form.press('#apply', 'Enter'); // keyboard, as a user without a mouse would
      let written = '';
      for (let i = 0; i < 40 && !/"opencode\.historyTrim\.cutStepTokens":\s*400/.test(written); i++) {
        await page.waitForTimeout(250);
        written = fs.readFileSync(process.env.SETTINGS, 'utf8');
      }
      check(/"opencode\.historyTrim\.cutStepTokens":\s*400/.test(written) && /"opencode\.historyTrim\.headroomMinTokens":\s*300/.test(written), 'Write to settings wrote the chosen values');
    }
  } catch (e) {
    check(false, 'harness', String(e && e.message || e).split('\n')[0]);
  }
  await page.screenshot({ path: path.join(shots, 'report-ui-end.png') }).catch(() => undefined);
  await context.close().catch(() => {});
  return results.length && results.every(Boolean) ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error('[report-ui] harness error:', e); process.exit(2); });
