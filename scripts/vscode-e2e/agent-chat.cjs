// Browser test of VS Code's own agent (a bare prompt in the chat view, Agent mode, no @participant) with OpenCode
// models, in one new window:
//   1. fake-small (a 6K input budget): the agent's tools alone do not fit, so the request is refused before anything
//      is sent; the chat shows the provider's reason (how many tools, their tokens, what would fit), the log says
//      "Not sent", nothing reaches the fake server, and the status bar item turns to the warning.
//   2. fake-large: AGENT_TURNS (default 5) turns; turn 2 is a scripted call of one of the agent's own tools
//      (file_search), which VS Code runs, and its result goes back with the call id. On the fake server's recorded
//      requests: one request per turn (+1 for the tool result), the agent's tools in every request, each request
//      starting with the previous one's messages, one conversation id; from the window's OpenCode.log: a `[usage]`
//      line per request and cacheHit >= 90% on every one after the first.
// Offline, the agent needs `chat.allowAnonymousAccess: true` (set here in the user settings): without it the first
// bare prompt opens the GitHub Copilot sign-in instead (docs/testing-in-vscode.md "VS Code's agent"); with it, that
// prompt runs the chat setup without an account, which enables the built-in Copilot Chat extension (its agent is
// what answers) and forwards the prompt to it. AGENT_ANONYMOUS=0 leaves the setting out (to see the sign-in).
// Env: URL, FAKE_BASE, LOGS, SETTINGS, SHOT_DIR, TIMEOUT_MS, AGENT_TURNS, AGENT_WAIT_MS (the first prompt, which
//      waits for the setup; default 150000), AGENT_ANONYMOUS, CHROMIUM, PLAYWRIGHT_CORE.
// Prints the figures (`# agent …`) and `ok - …` / `not ok - …` per check; exit 0 when all passed.
const fs = require('fs');
const path = require('path');
const { launchBrowser, control } = require('./browser.cjs');
const { log, logMark, linesSince, usageOf, requests, conversationOf, send, newChat, openWorkbench } = require('./chat-driver.cjs');

const TURNS = Math.max(3, Number(process.env.AGENT_TURNS || 5));
const HIT_MIN = 90;
const SETUP_WAIT_MS = Number(process.env.AGENT_WAIT_MS || 150000);
/** Tools VS Code's agent always offers here (a workspace folder is open); the request must carry them. */
const AGENT_TOOLS = ['read_file', 'file_search', 'list_dir', 'run_in_terminal'];
const SIGN_IN = /You need to set up GitHub Copilot|Sign in to use GitHub Copilot/;
const nameOf = tool => tool.function?.name || tool.name;
const shot = async (page, name) => {
  if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, name) }).catch(() => {});
};

/** The status bar item of this extension, as text ('' when there is none). */
const statusText = page => page.locator('.statusbar-item').filter({ hasText: /OpenCode/ }).allInnerTexts().then(t => t.join(' | '), () => '');

/** fake-small: the agent's tools cannot fit; the first bare prompt of the window also runs the chat setup. */
async function toolsDoNotFit(page, check) {
  const model = 'fake-small';
  check(await newChat(page, model), `${model}: picked in the chat view`);
  await control('reset', {}); // earlier steps' requests
  const before = logMark();
  const refusal = new RegExp(`cannot fit ${model}'s input budget`);
  await send(page, 'Agent on fake-small: say hello.', new RegExp(`${refusal.source}|${SIGN_IN.source}`), { replies: [], waitMs: SETUP_WAIT_MS });
  await shot(page, 'agent-fake-small.png');
  const shown = (await page.evaluate(() => Array.from(document.querySelectorAll('.interactive-item-container.interactive-response')).map(e => e.innerText))).join('\n');
  if (SIGN_IN.test(shown)) {
    check(false, 'a bare prompt reaches VS Code\'s agent without a sign-in', shown.replace(/\s+/g, ' ').slice(0, 200));
    return false;
  }
  const told = /the (\d+) tools offered by the chat take ~([\d,]+) tokens/.exec(shown);
  check(refusal.test(shown) && !!told, `${model}: the chat says the agent's tools do not fit (how many, their tokens)`, told ? told[0] : shown.replace(/\s+/g, ' ').slice(0, 200));
  const lines = linesSince(before);
  const notSent = lines.find(l => l.includes('[history-trim] Not sent:'));
  const figures = notSent && /tools=(\d+) \(~(\d+) tokens.* budget=(\d+)/.exec(notSent);
  check(!!figures && Number(figures[2]) > Number(figures[3]), `${model}: the log says "Not sent", tools over the budget`, figures ? `tools=${figures[1]} ~${figures[2]} tokens, budget ${figures[3]}` : 'no "Not sent" line');
  check(!lines.some(l => /Over budget|truncated/i.test(l)), `${model}: no "Over budget" error, the system message not truncated`);
  check((await requests()).length === 0, `${model}: nothing was sent to the endpoint`);
  const status = await statusText(page);
  check(/request too large/.test(status), `${model}: the status bar shows the warning`, status);
  if (figures) console.log(`# agent ${model}: ${figures[1]} tools, ~${figures[2]} tokens (budget ${figures[3]}): not sent`);
  return true;
}

/** fake-large: several agent turns with one tool round trip through one of the agent's own tools. */
async function agentTurns(page, check) {
  const model = 'fake-large';
  const first = 'Agent turn 1: say hello.';
  check(await newChat(page, model), `${model}: picked in the chat view`);
  await control('reset', {});
  const turns = [];
  for (let t = 1; t <= TURNS; t++) {
    const before = logMark();
    const answer = `Agent answer ${t} from ${model}.`;
    let replies;
    if (t === 2) {
      // The tool's arguments are scripted, VS Code runs the tool; file_search is read-only and needs no consent.
      replies = [{ toolCalls: [{ id: 'call_e2e_1', name: 'file_search', arguments: JSON.stringify({ query: 'README.md' }) }] }, { text: answer }];
    }
    const typed = t === 1 ? first : t === 2 ? 'Agent turn 2: find the README with a tool.' : `Agent turn ${t}: one short question.`;
    const ok = await send(page, typed, answer, { replies, waitMs: t === 1 ? SETUP_WAIT_MS : 45000 });
    turns.push({ t, ok, usage: usageOf(linesSince(before)) });
    if (!ok) { check(false, `${model}: agent turn ${t} answered`); await shot(page, 'agent-fake-large.png'); return; }
  }
  await shot(page, 'agent-fake-large.png');
  check(true, `${model}: ${TURNS} agent turns answered`);
  const all = await requests();
  // The recording was reset when this chat began: every request since is one of its turns (VS Code's agent sends no
  // title or summary requests without BYOK utility models).
  const sent = all.filter(r => r.body?.model === model);
  if (process.env.SHOT_DIR) fs.writeFileSync(path.join(process.env.SHOT_DIR, 'agent-requests.json'), JSON.stringify(all, null, 1));
  check(sent.length === TURNS + 1, `${model}: one request per turn, one more for the tool result`, `${sent.length}`);
  const names = sent.map(r => (r.body.tools || []).map(nameOf));
  const missing = AGENT_TOOLS.filter(n => !names.every(list => list.includes(n)));
  const toolBytes = JSON.stringify(sent[0]?.body.tools || []).length;
  check(missing.length === 0, `${model}: every request carries the agent's tools`, missing.length ? `missing ${missing.join(', ')}` : `${names[0].length} tools, ${toolBytes} bytes`);
  const result = sent.flatMap(r => r.body.messages || []).find(m => m.role === 'tool' && m.tool_call_id === 'call_e2e_1');
  check(!!result && String(result.content).includes('README.md'), `${model}: the tool ran in VS Code and its result went back with the call id`, result ? String(result.content).slice(0, 80) : 'no tool message');
  const without = sent.filter(r => !JSON.stringify(r.body.messages).includes(first)).length;
  check(without === 0, `${model}: turn 1's question in every request`, `missing in ${without}/${sent.length}`);
  const changed = sent.slice(1).map((r, j) => sent[j].body.messages.findIndex((m, k) => JSON.stringify(m) !== JSON.stringify(r.body.messages[k]))).map((k, j) => ({ k, j: j + 2 })).filter(x => x.k >= 0);
  check(changed.length === 0, `${model}: each request starts with the previous one's messages, byte for byte (nothing earlier dropped)`, changed.map(x => `request ${x.j}: message ${x.k}`).join(', '));
  const ids = new Set(sent.flatMap(conversationOf));
  check(ids.size === 1, `${model}: one conversation id throughout`, [...ids].join(', '));
  const usage = turns.flatMap(x => x.usage);
  check(usage.length === sent.length, `${model}: a [usage] line per request`, `${usage.length}/${sent.length}`);
  const later = usage.slice(1);
  check(later.length > 0 && later.every(u => u.hit >= HIT_MIN), `${model}: cacheHit >= ${HIT_MIN}% on every request after the first`, later.map(u => `${u.hit}%`).join(' '));
  console.log(`# agent ${model}: ${sent.length} requests, ${names[0]?.length} tools (${toolBytes} bytes); cacheHit ${usage.map(u => `${u.hit}%`).join(' ')}; prompt tokens ${usage.map(u => u.prompt).join(' ')}`);
}

async function main() {
  const timeout = Number(process.env.TIMEOUT_MS || 90000);
  const settings = JSON.parse(fs.readFileSync(process.env.SETTINGS, 'utf8'));
  delete settings['opencode.maxInputTokens']; // the models' own budgets (report-ui.cjs lowers it)
  if (process.env.AGENT_ANONYMOUS === '0') delete settings['chat.allowAnonymousAccess'];
  else settings['chat.allowAnonymousAccess'] = true;
  fs.writeFileSync(process.env.SETTINGS, JSON.stringify(settings, null, 2));
  const context = await launchBrowser();
  const page = context.pages()[0] || await context.newPage();
  const results = [];
  const check = (ok, name, detail = '') => { results.push(ok); console.log(`${ok ? 'ok' : 'not ok'} - agent: ${name}${detail ? ` (${detail})` : ''}`); };
  try {
    await openWorkbench(page, timeout);
    const started = Date.now();
    if (await toolsDoNotFit(page, check)) await agentTurns(page, check);
    log(`agent chats: ${Math.round((Date.now() - started) / 1000)} s`);
  } catch (e) {
    check(false, 'harness', String(e && e.message || e).split('\n')[0]);
  }
  await shot(page, 'agent-end.png');
  await context.close().catch(() => {});
  return results.length && results.every(Boolean) ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error('[agent-chat] harness error:', e); process.exit(2); });
