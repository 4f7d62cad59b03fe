/**
 * Every model's real limit over real HTTP (fake OpenCode server, mounted as OpenCode's gateway: `/models` lists ids
 * only): a session growing past a model's input limit answers every turn — no refusal when the data gives the
 * limit, one when it does not — and its cut then holds; a new id of a known family is listed with its family's
 * limits, marked estimated; VS Code hears of each real change once; inline suggestions and commit messages trim to
 * the `opencode.models` override like chat.
 */
import * as assert from 'assert';
import type * as vscode from 'vscode';
import { MODEL_TABLE } from '../core/models/modelTable';
import type { ChatMessage } from '../core/types';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { chat, engineFor, MemoryStore, runOnce } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { filler } from './support/trimHarness';
import * as double from './support/vscodeDouble';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 10_000 };
const token = () => new double.CancellationTokenSource().token as unknown as vscode.CancellationToken;
const zenOf = (url: string) => url.replace(/\/v1$/, '/zen/v1');
const LIMIT = 24_000;

describe('model limits over real HTTP (ids-only /models)', function () {
  this.timeout(120_000);
  const server = useFakeServer({
    models: [
      // Both take 24,000 input tokens of a 60,000 window and refuse more without naming a number.
      { id: 'lim-given', contextWindow: 60_000, inputLimit: LIMIT, maxOutputTokens: 4_000, toolCalling: true },
      { id: 'lim-hidden', contextWindow: 60_000, inputLimit: LIMIT, maxOutputTokens: 4_000, toolCalling: true },
      { id: 'fake-large', contextWindow: 1_000_000, maxOutputTokens: 32_000, toolCalling: true },
    ],
  });
  // The live data knows both; only for lim-given does it give the input limit.
  before(() => MODEL_TABLE.setLive({ date: '2099-01-01', source: 'test', zen: { 'lim-given': { route: 'chat', contextWindow: 60_000, inputLimit: LIMIT, maxOutputTokens: 4_000 }, 'lim-hidden': { route: 'chat', contextWindow: 60_000, maxOutputTokens: 4_000 } }, go: {} }));
  after(() => MODEL_TABLE.setLive(undefined));

  const chats = () => server().requests.filter((r) => r.path.endsWith('/chat/completions'));

  /** A conversation growing ~1,200 tokens a turn to about twice the limit; the refusals it met and its cut per turn. */
  async function grow(engine: ReturnType<typeof engineFor>['engine'], log: ReturnType<typeof engineFor>['log'], model: string, opening: string): Promise<{ refusals: number; cuts: string[] }> {
    const history: ChatMessage[] = chat(opening);
    const before = chats().length;
    const cuts: string[] = [];
    for (let i = 0; i < 40; i++) {
      const lines = log.messages('info').length;
      const { text } = await runOnce(engine, model, history, {});
      assert.ok(text.length > 0, `turn ${i} answered`);
      const trim = log.messages('info').slice(lines).find((m) => m.startsWith('[history-trim] Dropped'));
      cuts.push(trim ? /cut=(moved|held)/.exec(trim)![1] : '-');
      history.push(...chat(text), ...chat(`${opening} ${i}: ${filler(1_200, i)}`));
    }
    return { refusals: chats().length - before - 40, cuts };
  }

  const heldRun = (cuts: string[]) => Math.max(0, ...cuts.join(' ').split(/moved|-/).map((run) => run.trim().split(' ').filter((c) => c === 'held').length));

  it('the data gives the input limit: every turn answered, no refusal, the cut holds', async () => {
    const { engine, log } = engineFor(zenOf(server().url), { endpointCatalog: 'zen' }, new MemoryStore(), fast);
    assert.strictEqual(engine.factsFor('lim-given', {}).inputLimit, LIMIT);
    const { refusals, cuts } = await grow(engine, log, 'lim-given', 'GIVEN');
    assert.strictEqual(refusals, 0, cuts.join(' '));
    assert.ok(cuts.includes('moved') && heldRun(cuts) >= 3, cuts.join(' '));
  });

  it('the data does not give it: one refusal, learned; the cut then holds; a later conversation meets none', async () => {
    const store = new MemoryStore();
    const { engine, log } = engineFor(zenOf(server().url), { endpointCatalog: 'zen' }, store, fast);
    const first = await grow(engine, log, 'lim-hidden', 'HIDDEN one');
    assert.strictEqual(first.refusals, 1, first.cuts.join(' '));
    assert.ok(log.messages('warn').some((m) => /lim-hidden rejected the request as too long \(no limit named: below ~\d+ tokens; now trimming under \d+, known to fit, remembered\)/.test(m)), log.messages('warn').join('\n'));
    const after = first.cuts.slice(first.cuts.lastIndexOf('moved'));
    assert.ok(heldRun(first.cuts) >= 3 && after.length >= 2, first.cuts.join(' '));
    const facts = engine.factsFor('lim-hidden', {});
    assert.ok(facts.inputSource === 'learned' && facts.inputLimit! <= LIMIT, `${facts.inputLimit}`);
    const later = engineFor(zenOf(server().url), { endpointCatalog: 'zen' }, store, fast);
    assert.strictEqual((await grow(later.engine, later.log, 'lim-hidden', 'HIDDEN two')).refusals, 0);
  });

  it('a new id of a known family is listed with its family\'s limits, marked estimated; an input limit is what VS Code is told', async () => {
    const ext = activateAgainst({ url: zenOf(server().url) }, { endpointCatalog: 'zen' });
    try {
      const models = await ext.provider.provideLanguageModelChatInformation({ silent: true }, token());
      const byId = new Map((models ?? []).map((m) => [m.id, m]));
      // gpt-8: no data lists it; gpt-5.5 (1,050,000 window, 922,000 input) stands in.
      const gpt8 = byId.get('gpt-8');
      assert.strictEqual(gpt8?.maxInputTokens, 922_000);
      assert.match(String(gpt8?.tooltip), /Context window 1\.05M tokens \(estimated from gpt-5\.5\); input limit 922K \(estimated from gpt-5\.5\)/);
      assert.match(String(gpt8?.detail), /~1\.05M/);
      // gpt-5.4-mini: a 400,000 window that takes 272,000 input tokens.
      assert.strictEqual(byId.get('gpt-5.4-mini')?.maxInputTokens, 272_000);
      assert.match(String(byId.get('gpt-5.4-mini')?.tooltip), /input limit 272K \(snapshot\); trim budget 272K/);
    } finally {
      ext.dispose();
    }
  });

  it('VS Code hears of a learned limit once, not on every request after it', async () => {
    const ext = activateAgainst({ url: zenOf(server().url) }, { endpointCatalog: 'zen' }, undefined, fast);
    try {
      let fired = 0;
      ext.provider.onDidChangeLanguageModelChatInformation?.(() => fired++);
      const history: vscode.LanguageModelChatRequestMessage[] = [];
      let refused = 0;
      let before = 0;
      let atRefusal = -1;
      let firstTurn = 0;
      for (let i = 0; i < 30; i++) {
        if (i === 1) firstTurn = fired;
        history.push(user(`EVENTS ${i}: ${filler(1_200, i)}`));
        const sent = chats().length;
        const firedBefore = fired;
        await ask(ext, 'lim-hidden', history);
        if (chats().length - sent > 1 && atRefusal < 0) [atRefusal, before] = [fired, firedBefore];
        refused += chats().length - sent - 1;
      }
      assert.strictEqual(refused, 1);
      assert.strictEqual(before, firstTurn, 'none while the prompts only grew (after the first listing)');
      assert.strictEqual(atRefusal - before, 1, 'one event for the learned limit');
      assert.strictEqual(fired, atRefusal, 'none for the requests after it');
      const listed = (await ext.provider.provideLanguageModelChatInformation({ silent: true }, token()))?.find((m) => m.id === 'lim-hidden');
      assert.ok(listed && listed.maxInputTokens < LIMIT, `VS Code is told ${listed?.maxInputTokens}`);
      assert.match(String(listed?.tooltip), /input limit \d+K \(learned\)/);
    } finally {
      ext.dispose();
    }
  });
});

describe('inline suggestions and commit messages take the model table\'s limits (the opencode.models override)', () => {
  const server = useFakeServer();
  const OVERRIDE = { models: { 'fake-large': { contextWindow: 1_200 } } };
  const CODE = `${Array.from({ length: 120 }, (_, i) => `export const value${i} = compute(${i}, "${'x'.repeat(12)}");`).join('\n')}\nexport function add(a: number, b: number) {\n  return \n}\n`;

  it('inline: a 1,200-token window override trims the inline request (the listed window is 1,000,000)', async () => {
    const ext = activateAgainst(server(), { ...OVERRIDE, 'inlineSuggestions.enabled': true, 'inlineSuggestions.model': 'fake-large', 'inlineSuggestions.debounceMs': 0 });
    try {
      const offset = CODE.indexOf('  return ') + '  return '.length;
      const document = double.documentOf(double.Uri.file('/ws/src/math.ts'), CODE, 'typescript');
      const line = CODE.slice(0, offset).split('\n').length - 1;
      await double.inlineProviders[0].provideInlineCompletionItems(document, new double.Position(line, 9), {}, new double.CancellationTokenSource().token);
      assert.ok(/\[history-trim\] (Dropped|Truncated)/.test(ext.log.text()), ext.log.text());
    } finally {
      ext.dispose();
    }
  });

  it('commit: the same override trims the commit prompt (a staged diff the 1,000,000 window would send whole)', async () => {
    const ext = activateAgainst(server(), { ...OVERRIDE, 'commitMessage.model': 'fake-large' });
    const repository = { rootUri: double.Uri.file('/ws'), inputBox: { value: '' }, state: { indexChanges: [{}] }, diff: async () => `diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -1 +1,80 @@\n${Array.from({ length: 80 }, (_, i) => `+export const line${i} = ${i};`).join('\n')}`, log: async () => [] };
    double.installedExtensions.set('vscode.git', { isActive: true, exports: { getAPI: () => ({ repositories: [repository] }) } });
    try {
      await double.commands.executeCommand('opencode.generateCommitMessage');
      assert.ok(/\[history-trim\] (Dropped|Truncated)/.test(ext.log.text()), ext.log.text());
    } finally {
      double.installedExtensions.delete('vscode.git');
      ext.dispose();
    }
  });
});
