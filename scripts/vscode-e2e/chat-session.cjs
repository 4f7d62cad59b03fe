// Browser test of whole chats in the real chat view: on each route (fake-large = Chat Completions,
// fake-responses, fake-messages, fake-native-gemini) a 10-turn `@opencode` chat with a pasted text on turn 2 and a
// typed `#file:` on turn 4, all in one page session (VS Code's own agent: agent-chat.cjs). Checked on the fake
// server's recorded requests and the window's OpenCode.log:
//   one conversation id (`x-opencode-session`, Responses `prompt_cache_key`) per chat; the paste's text in every
//   later request, the file's from turn 4 on; each earlier user turn re-sent byte for byte; `cacheHit` >= 90% on
//   every turn after the first whose new text is small (not the paste or file turns themselves).
// Prints the figures (`# route …`) and `ok - …` / `not ok - …` per check; exit 0 when all passed.
// The window's settings name each native model's route (as a user of a loopback endpoint would) and leave the budget
// to the model, so the cut never moves here (report-ui.cjs covers moving cuts).
// The first chat reloads the window after turn RELOAD_AFTER (default 5; 0 = never): the rest of it is sent by a new
// extension host from the history VS Code restored.
// Env: URL, FAKE_BASE, LOGS (<user-data-dir>/logs), SETTINGS (User/settings.json), FOLDER (the workspace folder), SHOT_DIR, TIMEOUT_MS, ROUTES
//      (comma list of models, default all four), TURNS (default 10), RELOAD_AFTER, CHROMIUM, PLAYWRIGHT_CORE.
const fs = require('fs');
const path = require('path');
const { launchBrowser, control } = require('./browser.cjs');
const { log, logMark, linesSince, usageOf, requests, conversationOf, visibleInput, participantReady, send, newChat, openWorkbench } = require('./chat-driver.cjs');

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

const userItems = r => (r.body.input || r.body.contents || r.body.messages || []).filter(m => m.role === 'user')
  .map(m => JSON.stringify(m, (k, v) => (k === 'cache_control' ? undefined : v)));

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

async function main() {
  const timeout = Number(process.env.TIMEOUT_MS || 90000);
  fs.writeFileSync(path.join(process.env.FOLDER, 'session-notes.txt'), `${FILE_TEXT}\n`);
  const settings = JSON.parse(fs.readFileSync(process.env.SETTINGS, 'utf8'));
  delete settings['opencode.maxInputTokens'];
  settings['opencode.models'] = { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } };
  fs.writeFileSync(process.env.SETTINGS, JSON.stringify(settings, null, 2));
  const context = await launchBrowser();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(process.env.URL).origin });
  const page = context.pages()[0] || await context.newPage();
  const results = [];
  const check = (ok, name, detail = '') => { results.push(ok); console.log(`${ok ? 'ok' : 'not ok'} - chat session: ${name}${detail ? ` (${detail})` : ''}`); };
  try {
    await openWorkbench(page, timeout);
    const reloadAfter = Number(process.env.RELOAD_AFTER ?? 5);
    for (const [i, model] of MODELS.entries()) {
      const started = Date.now();
      await opencodeChat(page, model, check, i === 0 ? reloadAfter : 0);
      log(`${model}: ${Math.round((Date.now() - started) / 1000)} s`);
      if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, `session-${model}.png`) }).catch(() => {});
    }
  } catch (e) {
    check(false, 'harness', String(e && e.message || e).split('\n')[0]);
  }
  if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'session-end.png') }).catch(() => {});
  await context.close().catch(() => {});
  return results.length && results.every(Boolean) ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error('[chat-session] harness error:', e); process.exit(2); });
