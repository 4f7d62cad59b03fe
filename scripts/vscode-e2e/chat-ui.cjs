// Browser test of the real chat view: types two turns to the `@opencode` participant, reads both answers from the
// DOM, checks that the second request carried the first turn as history, then (issue 31) attaches a PNG of the
// workspace (`#file:`) for the text-only fake-large and checks that it is answered from a vision model's description
// (one describing request, the description in fake-large's request), and saves a screenshot.
// (A bare prompt would go to GitHub Copilot's participant, which needs a GitHub sign-in; `@opencode` does not.)
// Env: URL (workbench URL with ?folder=…), FAKE_BASE (fake server origin, for /_control), MODEL_NAME (picker entry to
//      choose, default fake-large), TIMEOUT_MS (workbench and chat input, default 90000), ANSWER_TIMEOUT_MS (per
//      answer, default 30000), SHOT (screenshot path), FOLDER (the workspace folder, for the image), CHROMIUM,
//      PLAYWRIGHT_CORE.
// Prints `ok - …` / `not ok - …` per check; exit 0 when all passed.
const fs = require('fs');
const path = require('path');
const { launchBrowser, control } = require('./browser.cjs');

/** A valid 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const TURNS = [
  { prompt: 'Which fruit is yellow?', answer: 'Bananas are yellow (answer one).' },
  { prompt: 'And which one is red?', answer: 'Strawberries are red (answer two).' },
];
const INPUT = '.interactive-input-part .native-edit-context, .interactive-input-part .monaco-editor textarea';
const t0 = Date.now();
const log = (...a) => console.log(`[chat-ui +${Date.now() - t0}ms]`, ...a);

const answers = page => page.evaluate(() => Array.from(
  document.querySelectorAll('.interactive-item-container.interactive-response .value')).map(e => e.innerText));

/** On a fresh profile the picker may show just "Models"; open it and choose our model (best effort). */
async function pickModel(page, name) {
  const hasIt = () => page.evaluate(n => !!document.querySelector('.interactive-input-part')?.textContent?.includes(n), name);
  for (let i = 0; i < 16 && !(await hasIt()); i++) {
    if (i % 4 === 3) {
      await page.locator('.interactive-input-part').getByText(/^(Models|Auto)$/).first().click({ force: true, timeout: 2000 }).catch(() => {});
      await page.waitForTimeout(800);
      await page.locator('.monaco-list-row').filter({ hasText: name }).first().click({ force: true, timeout: 2000 })
        .catch(() => page.keyboard.press('Escape'));
    }
    await page.waitForTimeout(500);
  }
  log(await hasIt() ? `model picker shows ${name}` : `model picker does not show ${name}; @opencode falls back to its first model`);
}

/**
 * Types a prompt into the chat input and sends it, checking first that the text landed there: an editor VS Code
 * restores late (an untitled file of an earlier window) can take the focus and the keys.
 */
async function sendPrompt(page, input, text) {
  const typed = () => page.evaluate(() => document.querySelector('.interactive-input-part .view-lines')?.textContent || '');
  for (let attempt = 0; attempt < 3; attempt++) {
    await input.focus(); // a click is intercepted by an overlay span
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
    if ((await typed()).replace(/\s+/g, ' ').includes(text.slice(-12))) break;
    log(`the prompt did not land in the chat input (attempt ${attempt + 1}); focusing it again`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1000);
  }
  const before = await requestsShown(page);
  await page.keyboard.press('Enter');
  // Right after an answer VS Code may still be finishing the turn (its title request, restoring an editor) and drop
  // the Enter: when no new request appears in the chat, the prompt is sent once more.
  for (let i = 0; i < 20 && (await requestsShown(page)) <= before; i++) await page.waitForTimeout(250);
  if ((await requestsShown(page)) <= before) {
    log('the prompt was not taken by the chat; sending it again');
    await page.waitForTimeout(2000);
    await input.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }
}

/** How many items (requests and answers) the chat view shows: a prompt taken adds one at once. */
const requestsShown = page => page.evaluate(() => document.querySelectorAll('.interactive-item-container').length);

async function main() {
  const timeout = Number(process.env.TIMEOUT_MS || 90000);
  const answerTimeout = Number(process.env.ANSWER_TIMEOUT_MS || 30000);
  const context = await launchBrowser();
  const page = context.pages()[0] || await context.newPage();
  const results = [];
  const check = (ok, name, detail = '') => { results.push(ok); console.log(`${ok ? 'ok' : 'not ok'} - chat view: ${name}${detail ? ` (${detail})` : ''}`); };
  try {
    await control('reset', {});
    await page.goto(process.env.URL, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout });
    const input = page.locator(INPUT).first();
    if (!(await input.isVisible().catch(() => false))) await page.keyboard.press('Control+Alt+KeyI'); // Open Chat
    await input.waitFor({ state: 'visible', timeout });
    log('chat input visible');
    await pickModel(page, process.env.MODEL_NAME || 'fake-large');
    for (const [i, turn] of TURNS.entries()) {
      await control('reply', { text: turn.answer });
      await sendPrompt(page, input, `@opencode ${turn.prompt}`);
      let seen = [];
      const end = Date.now() + answerTimeout;
      while (Date.now() < end) {
        seen = await answers(page);
        if (seen[i]?.includes(turn.answer)) break;
        await page.waitForTimeout(250);
      }
      check(!!seen[i]?.includes(turn.answer), `turn ${i + 1} answer on screen`, JSON.stringify((seen[i] || '').slice(0, 120)));
      if (!seen[i]?.includes(turn.answer)) { log('no answer; is @opencode registered? (see the screenshot)'); break; }
    }
    if (results.length < TURNS.length) throw new Error('skipped the history check');
    const recorded = await control('requests');
    const list = (Array.isArray(recorded) ? recorded : recorded.requests || []).map(r => r.body || r).filter(b => Array.isArray(b.messages));
    const last = JSON.stringify(list[list.length - 1]?.messages || []);
    check(last.includes(TURNS[0].prompt) && last.includes(TURNS[0].answer) && last.includes(TURNS[1].prompt),
      'second request carried the first turn as history');
    // Issue 31: an image for a text-only model is described by a vision model of the endpoint (the fake server's
    // cheapest priced one), and the model answers from the description. No scripted reply: the describer answers
    // with what it saw of the bytes, fake-large with the start of its prompt.
    if (process.env.FOLDER) {
      fs.writeFileSync(path.join(process.env.FOLDER, 'photo.png'), PNG);
      await control('reset', {});
      await sendPrompt(page, input, '@opencode What is in #file:photo.png ?');
      let answer = '';
      const end = Date.now() + answerTimeout;
      while (Date.now() < end) {
        answer = (await answers(page)).find(a => a.includes('image described by')) || '';
        if (answer) break;
        await page.waitForTimeout(250);
      }
      const sent = await control('requests');
      // Every recorded body, whatever its route (the describer may be on Responses: `input`, not `messages`).
      const bodies = (Array.isArray(sent) ? sent : sent.requests || []).map(r => r.body || r).filter(b => b && typeof b === 'object');
      const describing = bodies.filter(b => /"(image_url|input_image|inline_data|inlineData)"|"type":"image"/.test(JSON.stringify(b)));
      const answered = bodies.filter(b => b.model === 'fake-large' && /\[image described by [^\]]*saw image 1x1/.test(JSON.stringify(b.messages || [])));
      check(describing.length === 1 && answered.length === 1 && !!answer,
        'an image for the text-only fake-large is answered from its description (one describing request)',
        `${describing.map(b => b.model).join(',')} described; answer ${JSON.stringify(answer.slice(0, 120))}`);
    }
  } catch (e) {
    if (results.every(Boolean)) check(false, 'harness', String(e && e.message || e).split('\n')[0]);
  }
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT }).catch(e => log('screenshot failed', e.message));
  await context.close().catch(() => {});
  return results.length && results.every(Boolean) ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error('[chat-ui] harness error:', e); process.exit(2); });
