/**
 * The ceiling session on Anthropic Messages (fake-messages), against the same session on Chat Completions
 * (fake-large), with the same budget pinned by opencode.maxInputTokens: the trim is route-neutral, so the cut
 * must fall at the same positions on both routes, and Messages' cache breakpoints (which follow the conversation)
 * must keep the prompt cache hitting between cut moves. Judged from the REAL OpenCode.log.
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

  it('cuts at the same positions as the chat route and keeps cacheHit ≥ 90% between cut moves', async () => {
    const chat = await runCeilingSession(await model('fake-large'));
    const messages = await runCeilingSession(await model('fake-messages'));
    console.log(`# chat (dropped/cut cacheHit%): ${describeTurns(chat)}`);
    console.log(`# messages (dropped/cut cacheHit%): ${describeTurns(messages)}`);
    assert.ok(messages.filter((t) => t.dropped !== undefined).length >= 5, 'the Messages session never reached the ceiling');
    assert.ok(messages.some((t) => t.cut === 'moved'), 'the cut never moved');
    assert.deepStrictEqual(messages.map((t) => t.dropped ?? 0), chat.map((t) => t.dropped ?? 0), 'the same cut on both routes');
    const held = messages.filter((t, i) => i > 0 && t.cut !== 'moved');
    const worst = Math.min(...held.map((t) => t.cacheHit));
    assert.ok(worst >= 90, `cacheHit fell to ${worst}% on a Messages turn where the cut held`);
  });
});
