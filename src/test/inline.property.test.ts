/**
 * Inline prompts within their budgets on random documents — long and minified lines, emoji, dense symbols,
 * up to a million lines, many neighbours, the cursor anywhere — and read from a bounded window: the number of
 * lines read does not grow with the file (the time is linear in what is kept; the bench times it).
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { buildInlinePrompt, CURSOR, DEFAULT_INLINE_BUDGET, type InlineBudget, type InlineDocument } from '../core/inline/inlinePrompt';
import { MAX_LINE_CHARS, type InlineLines } from '../core/inline/inlineWindow';
import { estimateTextTokens } from '../core/tokens/estimate';
import { runs } from './support/propertyRuns';

/** Kinds of line a real file has, the hostile ones included. */
const KINDS = [
  (i: number) => `  const value${i} = compute(${i}, "text");`,
  () => '',
  (i: number) => `${'x'.repeat(20)}${'a=1;'.repeat(50_000 + (i % 7))}`, // a minified line of ~200 KB
  (i: number) => '}{)(][;,'.repeat(30 + (i % 40)),
  (i: number) => `// 😀 中文注释 Привет ${i} ${'é'.repeat(i % 300)}`,
  (i: number) => ' '.repeat(i % 500) + 'x',
];

/** A document whose lines are computed on demand (no memory for a million lines), counting the lines read. */
function lazyDocument(lineCount: number, kinds: readonly number[], path: string): { doc: InlineDocument; reads: () => number; longest: () => number } {
  let reads = 0;
  let longest = 0;
  const lines: InlineLines = {
    lineCount,
    line: (i) => {
      reads++;
      const text = KINDS[kinds[i % kinds.length]](i);
      longest = Math.max(longest, text.length);
      return text;
    },
  };
  return { doc: { path, languageId: 'typescript', lines }, reads: () => reads, longest: () => longest };
}

const docArb = fc.record({
  lineCount: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 1_000_000 })),
  kinds: fc.array(fc.integer({ min: 0, max: KINDS.length - 1 }), { minLength: 1, maxLength: 12 }),
});

const budgetArb: fc.Arbitrary<InlineBudget> = fc.oneof(
  fc.constant(DEFAULT_INLINE_BUDGET),
  fc.record({ headTokens: fc.integer({ min: 0, max: 8_000 }), neighbourTokens: fc.integer({ min: 0, max: 3_000 }), suffixTokens: fc.integer({ min: 0, max: 800 }), nearTokens: fc.integer({ min: 0, max: 1_500 }) }),
);

const textOf = (p: ReturnType<typeof buildInlinePrompt>, i: number): string => (p.messages[i].parts[0] as { text: string }).text;
/** The estimate of a concatenation differs from the sum of its pieces' by a token or two at each joint. */
const SLACK = 3;

describe('inline prompts: within budget on any document (property)', () => {
  it('every part within its budget, the cursor anywhere, many neighbours, long lines; the lines read bounded by the budgets, not the file', () => {
    fc.assert(fc.property(docArb, fc.array(docArb, { maxLength: 8 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(), budgetArb, (main, others, where, column, budget) => {
      const self = lazyDocument(main.lineCount, main.kinds, 'src/main.ts');
      const neighbours = others.map((n, i) => lazyDocument(n.lineCount, n.kinds, `src/n${i}.ts`));
      const line = Math.floor(where * (main.lineCount - 1));
      const prompt = buildInlinePrompt({ document: self.doc, cursor: { line, character: column % 300_000 }, neighbours: neighbours.map((n) => n.doc), budget });

      const stable = textOf(prompt, 1);
      const fileAt = stable.lastIndexOf('File: src/main.ts (typescript)');
      assert.ok(fileAt >= 0);
      assert.ok(estimateTextTokens(stable.slice(0, fileAt)) <= budget.neighbourTokens + SLACK, 'the neighbours within their budget');
      const head = stable.slice(stable.indexOf('<file>\n', fileAt) + '<file>\n'.length);
      assert.ok(estimateTextTokens(head) <= budget.headTokens + SLACK, `the head within its budget: ${estimateTextTokens(head)} > ${budget.headTokens}`);
      const volatile = textOf(prompt, 3);
      const cursorAt = volatile.indexOf(CURSOR);
      assert.ok(estimateTextTokens(volatile.slice(0, cursorAt)) <= budget.nearTokens + SLACK, 'anchor → cursor within its budget');
      assert.ok(estimateTextTokens(prompt.suffix) <= budget.suffixTokens + SLACK, 'the suffix within its budget');
      assert.strictEqual(volatile.slice(cursorAt + CURSOR.length), `${prompt.suffix}\n</file>`);
      // No piece of any line longer than the cap reaches the prompt (a 200 KB line is cut, with a note).
      // (The cursor's line is two pieces, before and after the cursor, each within the cap.)
      for (const message of prompt.messages) {
        for (const piece of textOf({ ...prompt, messages: [message] }, 0).split('\n')) {
          const cap = piece.includes(CURSOR) ? 2 * (MAX_LINE_CHARS + 80) + CURSOR.length : MAX_LINE_CHARS + 80;
          assert.ok(piece.length <= cap, `a line of ${piece.length} chars`);
        }
      }

      // Each line read costs at least one token of some budget, or is the one line that ends a run.
      const total = budget.headTokens + budget.neighbourTokens + budget.suffixTokens + budget.nearTokens;
      const reads = self.reads() + neighbours.reduce((n, d) => n + d.reads(), 0);
      assert.ok(reads <= total + 4 * (neighbours.length + 4), `${reads} lines read for budgets of ${total} tokens`);
    }), { numRuns: runs(120) });
  });

  it('on ordinary code with the default budgets the window is used: the line above the anchor, the cursor line and the next line are in the prompt', () => {
    fc.assert(fc.property(fc.integer({ min: 40, max: 1_000_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (lineCount, where) => {
      const self = lazyDocument(lineCount, [0], 'src/main.ts');
      const line = Math.max(33, Math.floor(where * (lineCount - 2)));
      const prompt = buildInlinePrompt({ document: self.doc, cursor: { line, character: 8 }, neighbours: [lazyDocument(lineCount, [0, 1], 'src/other.ts').doc] });
      const anchor = Math.floor(line / 32) * 32;
      assert.ok(textOf(prompt, 1).endsWith(`${KINDS[0](anchor - 1)}\n`));
      assert.ok(textOf(prompt, 1).includes('Open file: src/other.ts (typescript)'));
      assert.ok(textOf(prompt, 3).includes(`${KINDS[0](line).slice(0, 8)}${CURSOR}${KINDS[0](line).slice(8)}\n${KINDS[0](line + 1)}`));
      assert.strictEqual(prompt.linePrefix, KINDS[0](line).slice(0, 8));
    }), { numRuns: runs(60) });
  });

  it('a 2 MB minified line being edited: the cursor line is cut around the cursor, the prompt stays within the budgets', () => {
    const minified = 'var a=function(b){return b+1};'.repeat(70_000);
    const doc: InlineDocument = { path: 'dist/app.min.js', languageId: 'javascript', lines: { lineCount: 1, line: () => minified } };
    const prompt = buildInlinePrompt({ document: doc, cursor: { line: 0, character: 1_000_000 }, neighbours: [{ ...doc, path: 'dist/other.min.js' }] });
    const all = prompt.messages.map((_, i) => textOf(prompt, i)).join('\n');
    const budget = DEFAULT_INLINE_BUDGET;
    assert.ok(estimateTextTokens(all) <= budget.headTokens + budget.neighbourTokens + budget.suffixTokens + budget.nearTokens + 300);
    assert.ok(all.length < 5_000, `${all.length} chars`);
    assert.ok(textOf(prompt, 3).includes('characters before this on the line are left out'));
    assert.ok(textOf(prompt, 3).includes('more characters on this line'));
    assert.ok(minified.slice(0, 1_000_000).endsWith(prompt.linePrefix) && prompt.linePrefix.length > 0);
  });
});
