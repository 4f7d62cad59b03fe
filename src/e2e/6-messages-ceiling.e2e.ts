/**
 * The ceiling session on Anthropic Messages (fake-messages), against the same session on Chat Completions
 * (fake-large), with the same budget pinned by opencode.maxInputTokens. The trim is route-neutral (the same
 * history and calibration give the same cut on every route: routes.cut.test.ts, replay --api), but each model
 * learns its own calibration from what its endpoint reports, and the fake Messages endpoint counts ~1% more
 * tokens for the same conversation (its per-block framing), so here the cut may move one turn earlier and
 * land one message apart. What must hold: the same number of moves, each within one message of the chat
 * route's, and Messages' cache breakpoints (which follow the conversation) keep the prompt cache hitting
 * ≥ 90% between cut moves. Judged from the REAL OpenCode.log.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { describeTurns, runCeilingSession } from './ceilingSession';
import { model } from './support';

/** About fake-small's budget (8,192-token window − 2,048 reserve), so the session trims from turn ~15 on. */
const BUDGET = 6_100;

describe('context ceiling on Anthropic Messages (fake-messages, budget pinned)', function () {
  this.timeout(600_000);
  const opencode = () => vscode.workspace.getConfiguration('opencode');

  before(async () => opencode().update('maxInputTokens', BUDGET, vscode.ConfigurationTarget.Global));
  after(async () => opencode().update('maxInputTokens', undefined, vscode.ConfigurationTarget.Global));

  it('cuts like the chat route (same moves, within one message) and keeps cacheHit ≥ 90% between cut moves', async () => {
    const chat = await runCeilingSession(await model('fake-large'));
    const messages = await runCeilingSession(await model('fake-messages'));
    console.log(`# chat (dropped/cut cacheHit%): ${describeTurns(chat)}`);
    console.log(`# messages (dropped/cut cacheHit%): ${describeTurns(messages)}`);
    assert.ok(messages.filter((t) => t.dropped !== undefined).length >= 5, 'the Messages session never reached the ceiling');
    assert.ok(messages.some((t) => t.cut === 'moved'), 'the cut never moved');
    const cuts = (turns: typeof chat) => [...new Set(turns.map((t) => t.dropped ?? 0).filter((n) => n > 0))];
    const [onChat, onMessages] = [cuts(chat), cuts(messages)];
    assert.strictEqual(onMessages.length, onChat.length, `cut positions: chat ${onChat.join(',')} vs messages ${onMessages.join(',')}`);
    onMessages.forEach((n, i) => assert.ok(Math.abs(n - onChat[i]) <= 1, `cut ${i + 1}: ${n} messages dropped on Messages vs ${onChat[i]} on chat`));
    const held = messages.filter((t, i) => i > 0 && t.cut !== 'moved');
    const worst = Math.min(...held.map((t) => t.cacheHit));
    assert.ok(worst >= 90, `cacheHit fell to ${worst}% on a Messages turn where the cut held`);
  });
});
