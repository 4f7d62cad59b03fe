/** Property tests: the trim's invariants over thousands of random histories (fast-check). */
import * as assert from 'assert';
import fc from 'fast-check';
import type { TrimResult } from '../core/trim/historyTrim';
import { SizeMemo } from '../core/trim/messageSize';
import type { WireMessage } from '../core/wire/wireTypes';
import { defaultSettings, filler, trimWith } from './support/trimHarness';
import { assertToolPairs } from './support/toolPairs';
import { runs } from './support/propertyRuns';
import { cutGeometry } from '../core/trim/budget';
import { splitHistory } from '../core/trim/cut';

const CJK = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质';

const unitArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), tokens: fc.integer({ min: 1, max: 1_500 }), cjk: fc.boolean() }),
  fc.record({ kind: fc.constant('assistant' as const), tokens: fc.integer({ min: 1, max: 1_500 }) }),
  fc.record({ kind: fc.constant('tools' as const), calls: fc.integer({ min: 1, max: 4 }), tokens: fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 4_000, max: 15_000 })) }),
  fc.record({ kind: fc.constant('image' as const), tokens: fc.integer({ min: 1, max: 200 }) }),
);
type UnitSpec = typeof unitArb extends fc.Arbitrary<infer T> ? T : never;

function cjkText(tokens: number, seed: number): string {
  let out = '';
  for (let i = 0; i < tokens; i++) out += CJK[(i * 31 + seed * 17) % CJK.length];
  return out;
}

let ids = 0;
function build(spec: UnitSpec, seed: number): WireMessage[] {
  switch (spec.kind) {
    case 'user':
      return [{ role: 'user', content: spec.cjk ? cjkText(spec.tokens, seed) : filler(spec.tokens, seed) }];
    case 'assistant':
      return [{ role: 'assistant', content: filler(spec.tokens, seed) }];
    case 'image':
      return [{ role: 'user', content: [{ type: 'text', text: filler(spec.tokens, seed) }, { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(2_000 + seed)}` } }] }];
    case 'tools': {
      const callIds = Array.from({ length: spec.calls }, () => `call_${ids++}`);
      return [
        { role: 'assistant', content: seed % 2 ? 'Running tools.' : null, tool_calls: callIds.map((id) => ({ id, type: 'function' as const, function: { name: 'run', arguments: JSON.stringify({ id, n: seed }) } })) },
        ...callIds.map((id, k): WireMessage => ({ role: 'tool', tool_call_id: id, content: JSON.stringify({ out: filler(Math.ceil(spec.tokens / spec.calls), seed + k) }) })),
      ];
    }
  }
}

const historyArb = fc.record({
  system: fc.boolean(),
  units: fc.array(unitArb, { minLength: 1, maxLength: 45 }),
  budget: fc.integer({ min: 2_000, max: 40_000 }),
  extraGridMoves: fc.integer({ min: 0, max: 2 }),
});

/** Growth between two turns small against the grid (a fifth of the budget), so the cut usually holds. */
const smallUnitArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), tokens: fc.integer({ min: 1, max: 300 }), cjk: fc.boolean() }),
  fc.record({ kind: fc.constant('assistant' as const), tokens: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('tools' as const), calls: fc.integer({ min: 1, max: 2 }), tokens: fc.integer({ min: 1, max: 400 }) }),
);

const heldCutArb = fc.record({
  history: fc.record({ system: fc.boolean(), units: fc.array(unitArb, { minLength: 10, maxLength: 45 }) }),
  /** The budget as a share of the history's estimated size. */
  share: fc.double({ min: 0.3, max: 0.9, noNaN: true }),
  growth: fc.array(smallUnitArb, { minLength: 1, maxLength: 3 }),
});

function rawTokens(messages: WireMessage[], memo: SizeMemo): number {
  return messages.reduce((total, m) => total + memo.sizeOf(m).tokens, 0);
}

function materialize(input: { system: boolean; units: UnitSpec[] }): WireMessage[] {
  const messages: WireMessage[] = input.system ? [{ role: 'system', content: 'You are a coding agent.' }] : [];
  messages.push({ role: 'user', content: 'ANCHOR: the task' });
  input.units.forEach((unit, i) => messages.push(...build(unit, i)));
  return messages;
}

function trim(messages: WireMessage[], budgetTokens: number, extraGridMoves: number, memo = new SizeMemo()): TrimResult {
  return trimWith(messages, budgetTokens, memo, extraGridMoves);
}

describe('historyTrim properties (random histories)', function () {
  this.timeout(60_000);

  it('always keeps head and current turn, never orphans a tool message, and stays within budget unless it says so', () => {
    fc.assert(
      fc.property(historyArb, (input) => {
        const messages = materialize(input);
        const result = trim(messages, input.budget, input.extraGridMoves);
        const parts = splitHistory(messages);
        for (let i = 0; i < parts.headEnd; i++) assert.ok(result.sentIndices.includes(i), 'head kept');
        for (let i = parts.currentTurnStart; i < messages.length; i++) assert.ok(result.sentIndices.includes(i), 'current turn kept');
        assert.ok(result.sentIndices.every((v, k) => k === 0 || v > result.sentIndices[k - 1]), 'order kept');
        assert.ok(result.messages.every((m, k) => m === messages[result.sentIndices[k]]), 'the same objects, never rewritten');
        assertToolPairs(result.messages);
        const afterHead = result.messages[parts.headEnd];
        if (afterHead && result.removed > 0) assert.notStrictEqual(afterHead.role, 'tool', 'kept history never starts with a tool result');
        const geometry = cutGeometry(input.budget, defaultSettings.historyTrim);
        if (!result.overCeiling) assert.ok(result.estTokens <= geometry.ceiling, `within budget: ${result.estTokens} > ${geometry.ceiling}`);
        else assert.strictEqual(result.sentIndices.length, parts.headEnd + (messages.length - parts.currentTurnStart), 'over budget only when every droppable unit is gone');
      }),
      { numRuns: runs(1_500) },
    );
  });

  it('gives the same cut from a warm memo as from a cold one (a restart)', () => {
    fc.assert(
      fc.property(historyArb, historyArb, (other, input) => {
        const warm = new SizeMemo();
        // A long-running host has measured other conversations and the earlier turns of this one.
        trim(materialize(other), other.budget, 0, warm);
        const messages = materialize(input);
        trim(messages.slice(0, Math.ceil(messages.length / 2)), input.budget, 0, warm);
        const fromWarm = trim(messages, input.budget, input.extraGridMoves, warm);
        // After a restart VS Code hands over fresh objects and the memo is empty.
        const fromCold = trim(structuredClone(messages), input.budget, input.extraGridMoves, new SizeMemo());
        assert.deepStrictEqual([fromWarm.sentIndices, fromWarm.estTokens, fromWarm.bytes], [fromCold.sentIndices, fromCold.estTokens, fromCold.bytes]);
      }),
      { numRuns: runs(500) },
    );
  });

  // About 90% of runs hold a cut while trimming (the earlier generator: about 11%, returning early on the rest).
  it('sends a nested prefix of the previous payload whenever the cut held while trimming (and checks that often)', () => {
    let tried = 0;
    let heldWhileTrimming = 0;
    fc.assert(
      fc.property(heldCutArb, ({ history, share, growth }) => {
        tried++;
        const messages = materialize(history);
        const memo = new SizeMemo();
        // A budget below the history's size, so the first request already trims.
        const budget = Math.max(2_000, Math.round(share * rawTokens(messages, memo)));
        const before = trim(messages, budget, 0, memo);
        const grown = [...messages, ...growth.flatMap((unit, i) => build(unit, 1_000 + i))];
        const after = trim(grown, budget, 0, memo);
        if (after.removed !== before.removed || before.removed === 0) return;
        heldWhileTrimming++;
        // The cut held: everything sent before is sent again, first and unchanged.
        assert.ok(before.messages.every((m, k) => after.messages[k] === m), 'nested prefix');
      }),
      { numRuns: runs(1_000) },
    );
    assert.ok(heldWhileTrimming >= 0.5 * tried, `only ${heldWhileTrimming} of ${tried} runs held a cut while trimming`);
  });
});
