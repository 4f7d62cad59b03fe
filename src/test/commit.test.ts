/** The commit-message prompt (vscode-free): the diff parsed, the style taken from recent subjects, an over-budget diff summarized and said so. */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { buildCommitPrompt, cleanCommitMessage, COMMIT_INSTRUCTIONS } from '../core/commit/commitPrompt';
import { parseDiff } from '../core/commit/stagedDiff';
import { estimateTextTokens } from '../core/tokens/estimate';
import { runs } from './support/propertyRuns';

const fileDiff = (path: string, hunks: number[]): string =>
  [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, ...hunks.map((n, h) => [`@@ -${h * 100},1 +${h * 100},${n} @@`, ...Array.from({ length: n }, (_, i) => `+${path} hunk ${h} line ${i}`), '-old line'].join('\n'))].join('\n');
const userText = (p: ReturnType<typeof buildCommitPrompt>): string => (p.messages[1].parts[0] as { text: string }).text;

describe('commit messages: the prompt', () => {
  it('parses files, hunks and line counts (binary files marked)', () => {
    const diff = `${fileDiff('a.ts', [2, 3])}\ndiff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ`;
    const files = parseDiff(diff);
    assert.deepStrictEqual(files.map((f) => [f.path, f.hunks.length, f.added, f.removed, f.binary]), [['a.ts', 2, 5, 2, false], ['img.png', 0, 0, 0, true]]);
  });

  it('within the budget: instructions, the recent subjects (first lines, newest first), the whole diff', () => {
    const diff = fileDiff('a.ts', [2]);
    const prompt = buildCommitPrompt({ diff, recentSubjects: ['feat: one\n\nbody', 'fix: two'] });
    assert.strictEqual((prompt.messages[0].parts[0] as { text: string }).text, COMMIT_INSTRUCTIONS);
    assert.strictEqual(userText(prompt), `Recent commit subjects in this repository, newest first:\n- feat: one\n- fix: two\n\nThe staged diff:\n\n${diff}`);
    assert.strictEqual(prompt.summarized, undefined);
  });

  it('property: over the budget, every file is listed, the kept hunks fit the budget and are whole, and the counts say what was left out', () => {
    fc.assert(fc.property(fc.array(fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 300, max: 2_000 }), (files, budget) => {
      const diff = files.map((hunks, f) => fileDiff(`src/f${f}.ts`, hunks)).join('\n');
      const prompt = buildCommitPrompt({ diff, recentSubjects: [], budgetTokens: budget });
      const text = userText(prompt);
      if (estimateTextTokens(diff) <= budget) return assert.strictEqual(prompt.summarized, undefined);
      const s = prompt.summarized;
      assert.ok(s);
      const total = files.reduce((n, h) => n + h.length, 0);
      assert.strictEqual(s.files, files.length);
      assert.strictEqual(s.hunksShown + s.hunksLeftOut, total);
      assert.ok(text.includes(`the ${s.hunksShown} largest of ${total} hunks that fit (${s.hunksLeftOut} left out)`));
      if (!s.grouped) files.forEach((hunks, f) => assert.ok(text.includes(`- src/f${f}.ts: +${hunks.reduce((a, b) => a + b, 0)} −${hunks.length}, ${hunks.length} hunk(s)`)));
      else assert.ok(text.includes(`line counts by folder (${files.length} files: too many to list one by one)`));
      assert.ok(estimateTextTokens(text) <= budget, 'the summary, note and file names included, within the budget');
      for (const hunk of text.slice(text.indexOf('Hunks shown:')).split('\n').filter((l) => l.startsWith('@@'))) assert.ok(diff.includes(hunk));
    }), { numRuns: runs(60) });
  });

  it('the largest hunks are kept first', () => {
    const diff = [fileDiff('small.ts', [30, 30]), fileDiff('big.ts', [80])].join('\n');
    const prompt = buildCommitPrompt({ diff, recentSubjects: [], budgetTokens: estimateTextTokens(fileDiff('big.ts', [80])) + 200 });
    assert.strictEqual(prompt.summarized?.hunksShown, 1);
    assert.ok(userText(prompt).includes('big.ts hunk 0 line 79'));
    assert.ok(!userText(prompt).includes('small.ts hunk 0 line 0'));
  });

  it('the answer: fences and quotes removed, trailing spaces trimmed', () => {
    assert.strictEqual(cleanCommitMessage('```\nfeat: x  \n\nwhy\n```'), 'feat: x\n\nwhy');
    assert.strictEqual(cleanCommitMessage('"fix: y"'), 'fix: y');
  });
});
