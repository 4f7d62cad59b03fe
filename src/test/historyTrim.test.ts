import * as assert from 'assert';
import { SizeMemo } from '../core/trim/messageSize';
import { historyTrimLine, overCeilingLine } from '../core/trim/trimLog';
import { computeBudget, cutGeometry } from '../core/trim/budget';
import { trimHistory } from '../core/trim/historyTrim';
import { validTrimState } from '../core/request/savedRecords';
import type { WireMessage } from '../core/wire/wireTypes';
import { defaultSettings, filler, toolGroup, trimWith } from './support/trimHarness';
import { planTrim } from '../core/trim/planTrim';
import { keptIndices, splitHistory } from '../core/trim/cut';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

function conversation(turns: number, tokensPerTurn: number): WireMessage[] {
  const messages: WireMessage[] = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: `ANCHOR task ${filler(50, 1)}` }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: `reply ${i} ${filler(tokensPerTurn / 2, i)}` });
    messages.push({ role: 'user', content: `turn ${i} ${filler(tokensPerTurn / 2, i + 1)}` });
  }
  return messages;
}

describe('historyTrim', () => {
  it('sends everything, untouched, when the history fits', () => {
    const messages = conversation(10, 200);
    const result = trimWith(messages, 100_000);
    assert.strictEqual(result.removed, 0);
    assert.ok(result.messages.every((m, i) => m === messages[i]), 'the very same objects are sent');
  });

  it('keeps the system prompt, the anchor and the current turn, and drops the oldest first', () => {
    const messages = conversation(120, 1_000);
    const result = trimWith(messages, 40_000);
    assert.ok(result.removed > 0);
    assert.deepStrictEqual(result.sentIndices.slice(0, 2), [0, 1]);
    assert.strictEqual(result.sentIndices[result.sentIndices.length - 1], messages.length - 1);
    const kept = result.sentIndices.slice(2);
    assert.deepStrictEqual(kept, Array.from({ length: kept.length }, (_, i) => messages.length - kept.length + i), 'one contiguous, newest block');
    assert.ok(result.estTokens <= cutGeometry(40_000, defaultSettings.historyTrim).ceiling);
  });

  it('drops a tool-call message together with all of its results and never starts the kept history with a result', () => {
    const messages: WireMessage[] = [{ role: 'user', content: 'anchor' }];
    for (let i = 0; i < 60; i++) messages.push(...toolGroup(`call${i}`, 900, i, 1 + (i % 3)));
    messages.push({ role: 'user', content: 'now' });
    const result = trimWith(messages, 20_000);
    const sent = result.messages;
    assert.notStrictEqual(sent[1].role, 'tool');
    const callIds = new Set(sent.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [])));
    const resultIds = sent.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    assert.deepStrictEqual([...callIds].sort(), [...resultIds].sort());
  });

  it('holds the cut while the full history is re-supplied each turn, and every payload extends the previous one', () => {
    const messages = conversation(150, 1_000);
    const memo = new SizeMemo();
    let previous = trimWith(messages, 60_000, memo);
    let moves = 0;
    for (let turn = 0; turn < 40; turn++) {
      messages.push({ role: 'assistant', content: `more ${turn} ${filler(300, turn)}` }, { role: 'user', content: `ask ${turn} ${filler(300, turn + 5)}` });
      const next = trimWith(messages, 60_000, memo);
      if (next.removed !== previous.removed) moves++;
      else assert.deepStrictEqual(next.sentIndices.slice(0, previous.sentIndices.length), previous.sentIndices, 'nested prefix while the cut holds');
      previous = next;
    }
    // ~640 tokens of growth a turn against a grid of cut step + headroom (2 × 6,000 at this budget): few moves.
    assert.ok(moves >= 1 && moves <= 3, `cut moved ${moves} times in 40 turns`);
  });

  it('lets the payload grow up to the ceiling before the cut moves (no idle low-water mark)', () => {
    const messages = conversation(150, 1_000);
    const memo = new SizeMemo();
    const geometry = cutGeometry(60_000, defaultSettings.historyTrim);
    let peak = 0;
    let previous = trimWith(messages, 60_000, memo);
    for (let turn = 0; turn < 60; turn++) {
      messages.push({ role: 'user', content: filler(400, turn) });
      const next = trimWith(messages, 60_000, memo);
      if (next.removed === previous.removed) peak = Math.max(peak, next.estTokens);
      previous = next;
    }
    assert.ok(peak > geometry.ceiling - 1_000, `held payloads reached ${peak}, ceiling ${geometry.ceiling}`);
    assert.ok(peak <= geometry.ceiling);
  });

  it('gives the same cut after a restart (cold memo, persisted cut state) as the warm process does', () => {
    const settings = { ...defaultSettings, budgetOverrideTokens: 50_000 };
    const warm = { memo: new SizeMemo(), states: new ConversationStates() };
    const ctx = (parts: typeof warm) => ({ settings, limits: { contextWindow: 1_000_000 }, calibration: 1.07, ...parts, log: new MemoryLogger() });
    const messages = conversation(120, 800);
    // The warm process has measured another conversation and every earlier turn of this one.
    planTrim(conversation(90, 700).slice(1), [], ctx(warm));
    for (let turn = 0; turn < 30; turn++) {
      messages.push({ role: 'assistant', content: `late reply ${turn} ${filler(300, turn)}` }, { role: 'user', content: `late turn ${turn} ${filler(300, turn + 3)}` });
      planTrim(messages, [], ctx(warm));
    }
    const persisted = JSON.parse(JSON.stringify(warm.states.toJSON())) as unknown;
    messages.push({ role: 'user', content: `final ${filler(500, 9)}` });
    const warmCut = planTrim(messages, [], ctx(warm));
    // VS Code hands over fresh objects after a restart: nothing of the warm memo can be reused by identity.
    const restarted = planTrim(structuredClone(messages), [], ctx({ memo: new SizeMemo(), states: ConversationStates.fromJSON(Object.fromEntries(Object.entries(persisted as Record<string, unknown>).map(([id, raw]) => [id, validTrimState(raw)!]))) }));
    assert.ok(warm.memo.hits > 0 && warmCut.trim.removed > 0, 'the warm process trimmed from a memo it had filled');
    assert.deepStrictEqual(restarted.trim.sentIndices, warmCut.trim.sentIndices);
    assert.deepStrictEqual([restarted.trim.estTokens, restarted.trim.bytes, restarted.cutMoved], [warmCut.trim.estTokens, warmCut.trim.bytes, warmCut.cutMoved]);
  });

  it('cuts one grid move further when the overflow sensor asked for it', () => {
    const messages = conversation(200, 800);
    const normal = trimWith(messages, 50_000);
    const earlier = trimWith(messages, 50_000, new SizeMemo(), 1);
    assert.strictEqual(earlier.gridMoves, normal.gridMoves + 1);
    assert.ok(earlier.removed > normal.removed);
  });

  it('never moves the cut back while the history only grows, even when the calibration factor drops', () => {
    const messages = conversation(150, 1_000);
    const states = new ConversationStates();
    const memo = new SizeMemo();
    const ctx = (calibration: number) => ({ settings: { ...defaultSettings, budgetOverrideTokens: 60_000 }, limits: { contextWindow: 1_000_000 }, calibration, memo, states, log: new MemoryLogger() });
    const first = planTrim(messages, [], ctx(1.12));
    messages.push({ role: 'user', content: 'a short follow-up' });
    // Within 10% of the factor the grid was laid with, so the frozen grid holds; with this factor fewer grid moves would fit.
    const second = planTrim(messages, [], ctx(1.1));
    assert.ok(first.trim.removed > 0);
    assert.strictEqual(second.trim.removed, first.trim.removed, 'the cut held');
    assert.strictEqual(second.cutMoved, false);
    const shorter = planTrim(messages.slice(0, 200), [], ctx(1.1));
    assert.ok(shorter.trim.removed < first.trim.removed, 'a shorter history (an edit, a summary) starts afresh');
  });

  it('reproduces the production scenario: after one trim, five ~1.7K follow-up turns do not move the cut', () => {
    const messages: WireMessage[] = [{ role: 'user', content: `ANCHOR ${'a'.repeat(200)}` }];
    for (let i = 0; i < 120; i++) messages.push({ role: 'user', content: `turn ${i} ${filler(700, i)}` });
    messages.push({ role: 'user', content: `CURRENT ${'c'.repeat(200)}` });
    const memo = new SizeMemo();
    const first = trimWith(messages, 60_000, memo);
    assert.ok(first.removed > 0);
    for (let turn = 0; turn < 5; turn++) {
      messages.push({ role: 'assistant', content: `reply ${turn} ${filler(800, turn)}` }, { role: 'user', content: `follow-up ${turn} ${filler(800, turn)}` });
      assert.strictEqual(trimWith(messages, 60_000, memo).removed, first.removed, `turn ${turn} moved the cut`);
    }
  });

  it('respects the byte ceiling even when tokens fit', () => {
    const messages = conversation(60, 1_000);
    const budget = computeBudget({ contextWindow: 1_000_000 }, { ...defaultSettings, maxRequestBytes: 100_000 });
    assert.strictEqual(budget.maxBytes, 100_000);
    const result = trimHistory(messages, { budget, geometry: cutGeometry(budget.tokens, defaultSettings.historyTrim), calibration: 1, extraGridMoves: 0, memo: new SizeMemo(), tools: { tokens: 0, bytes: 0 } });
    assert.ok(result.removed > 0);
    assert.ok(result.bytes <= 100_000 && !result.overCeiling, `sent ${result.bytes} bytes`);
    assert.ok(result.estTokens < budget.tokens / 10, 'tokens were never the constraint');
  });

  it('reports over budget with a breakdown when the current turn alone is too large', () => {
    const messages: WireMessage[] = [{ role: 'system', content: filler(100, 1) }, { role: 'user', content: 'anchor' }, { role: 'assistant', content: filler(2_000, 2) }, { role: 'user', content: filler(12_000, 3) }];
    const result = trimWith(messages, 10_000);
    assert.ok(result.overCeiling);
    assert.deepStrictEqual(result.sentIndices, [0, 1, 3]);
    const budget = computeBudget({ contextWindow: 30_000, maxOutputTokens: 20_000 }, { ...defaultSettings, budgetOverrideTokens: 10_000 });
    assert.match(overCeilingLine(result, budget), /^\[history-trim\] Over budget: no safe cut fits\. Sending ~\d+ tokens \/ \d+ bytes against budget=10000 maxBytes=524288 \(system=\d+ anchor=\d+ tools=0 history=0 currentTurn=\d+ reserve=\d+\)\.$/);
  });

  it('writes the contract line', () => {
    const messages = conversation(120, 1_000);
    const result = trimWith(messages, 40_000);
    const budget = computeBudget({ contextWindow: 60_000, maxOutputTokens: 20_000 }, { ...defaultSettings, budgetOverrideTokens: 40_000 });
    const line = historyTrimLine(result, budget, cutGeometry(40_000, defaultSettings.historyTrim), true);
    assert.strictEqual(line, `[history-trim] Dropped ${result.removed} old message(s) to fit context window (budget=40000, maxBytes=524288); estimated payload now ~${result.estTokens} tokens / ${result.bytes} bytes. headroom=4000 step=4000 cut=moved`);
  });
});

describe('history parts', () => {
  it('treats a history with no later user message as having its last unit as the current turn', () => {
    const messages: WireMessage[] = [{ role: 'user', content: 'task' }, ...toolGroup('a', 100, 1), ...toolGroup('b', 100, 2)];
    const parts = splitHistory(messages);
    assert.strictEqual(parts.headEnd, 1);
    assert.strictEqual(parts.currentTurnStart, 3);
    assert.deepStrictEqual(parts.middle, [{ start: 1, end: 3 }]);
  });

  it('with keepRounds, drops the oldest rounds of the current turn but pins the prompt', () => {
    const messages: WireMessage[] = [{ role: 'user', content: 'task' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'now do it' }, ...toolGroup('a', 100, 1), ...toolGroup('b', 100, 2), ...toolGroup('c', 100, 3)];
    const parts = splitHistory(messages, 2);
    assert.deepStrictEqual(parts, { headEnd: 1, prompt: 2, currentTurnStart: 5, middle: [{ start: 1, end: 2 }, { start: 3, end: 5 }] });
    assert.deepStrictEqual(keptIndices(messages.length, parts, 2), [0, 2, 5, 6, 7, 8]);
    assert.deepStrictEqual(splitHistory(messages).currentTurnStart, 2, 'by default the whole current turn is the tail');
  });
});
