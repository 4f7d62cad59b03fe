/**
 * The commit prompt fits its budget whatever the change (property): random change sets of up to 10,000 files,
 * deep and shallow folders, long paths, binary files and huge hunks; the files are always accounted for (one
 * line each, or counted by folder), and the prompt says which.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { buildCommitPrompt, DEFAULT_DIFF_BUDGET_TOKENS, summarizedNote } from '../core/commit/commitPrompt';
import { estimateTextTokens } from '../core/tokens/estimate';
import { runs } from './support/propertyRuns';

interface FileSpec {
  folder: number;
  depth: number;
  hunks: number[];
  binary: boolean;
  longName: boolean;
}

const fileArb: fc.Arbitrary<FileSpec> = fc.record({
  folder: fc.integer({ min: 0, max: 400 }),
  depth: fc.integer({ min: 0, max: 12 }),
  hunks: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 0, maxLength: 3 }),
  binary: fc.boolean(),
  longName: fc.boolean(),
});

function pathOf(spec: FileSpec, i: number): string {
  const folders = Array.from({ length: spec.depth }, (_, d) => `d${(spec.folder + d) % 37}`);
  const name = spec.longName ? `${'very-long-file-name-'.repeat(30)}${i}.ts` : `file${i}.ts`;
  return [...folders, name].join('/');
}

function diffOf(specs: readonly FileSpec[]): string {
  return specs.map((spec, i) => {
    const path = pathOf(spec, i);
    const header = [`diff --git a/${path} b/${path}`, `index 0000000..1111111 100644`];
    if (spec.binary) return [...header, `Binary files a/${path} and b/${path} differ`].join('\n');
    const hunks = spec.hunks.map((n, h) => [`@@ -${h * 50 + 1},1 +${h * 50 + 1},${n} @@`, ...Array.from({ length: n }, (_, l) => `+  const changed${l} = old${h}(${i}, "${'x'.repeat(l % 9)}");`), '-  removed();'].join('\n'));
    return [...header, `--- a/${path}`, `+++ b/${path}`, ...hunks].join('\n');
  }).join('\n');
}

const userText = (p: ReturnType<typeof buildCommitPrompt>): string => (p.messages[1].parts[0] as { text: string }).text;

describe('commit prompt: within its budget for any change set (property)', () => {
  it('up to 10,000 files: the diff part within the budget, every file accounted for, the note says how', () => {
    const sizes = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 50, max: 2_000 }), fc.integer({ min: 2_000, max: 10_000 }));
    fc.assert(fc.property(sizes, fc.array(fileArb, { minLength: 1, maxLength: 60 }), fc.integer({ min: 400, max: DEFAULT_DIFF_BUDGET_TOKENS }), (count, pattern, budget) => {
      const specs = Array.from({ length: count }, (_, i) => pattern[i % pattern.length]);
      const diff = diffOf(specs);
      const prompt = buildCommitPrompt({ diff, recentSubjects: ['feat: a subject', 'x'.repeat(5_000)], budgetTokens: budget });
      const text = userText(prompt);
      const body = text.slice(text.indexOf('\n\n') + 2);
      // Whole, the diff itself is within the budget (its heading is a few tokens more); summarized, all of it is.
      assert.ok(estimateTextTokens(prompt.summarized ? body : diff) <= budget, `${estimateTextTokens(body)} tokens > ${budget}`);
      assert.ok(estimateTextTokens(text.slice(0, text.indexOf('\n\n'))) <= 10 * 60, 'the recent subjects are capped');
      const s = prompt.summarized;
      if (!s) return assert.ok(body.endsWith(diff));
      assert.strictEqual(s.files, count);
      const listing = body.slice(body.indexOf('Files changed'), body.indexOf('\n\nHunks shown:'));
      if (!s.grouped) {
        assert.strictEqual(listing.split('\n').length - 1, count, 'one line per file');
      } else {
        const counted = [...listing.matchAll(/\((\d+) files?\)/g)].reduce((n, m) => n + Number(m[1]), 0);
        assert.strictEqual(counted, count, 'the folder lines count every file');
        assert.match(summarizedNote(s), /line counts by folder/);
        assert.match(body, /too many to list one by one/);
      }
    }), { numRuns: runs(25) });
  });

  it('1,000 and 10,000 staged files fit the 12,000-token budget (the sizes of issue 29: ~18K and ~198K tokens before)', () => {
    for (const count of [1_000, 10_000]) {
      const specs = Array.from({ length: count }, (_, i) => ({ folder: i % 50, depth: 1 + (i % 4), hunks: [3, 8], binary: false, longName: false }));
      const prompt = buildCommitPrompt({ diff: diffOf(specs), recentSubjects: ['fix: one'] });
      const tokens = estimateTextTokens(userText(prompt));
      assert.ok(tokens <= DEFAULT_DIFF_BUDGET_TOKENS + 100, `${count} files: ${tokens} tokens`);
      assert.ok(tokens >= DEFAULT_DIFF_BUDGET_TOKENS * 0.8, `${count} files: the budget is used (${tokens} tokens)`);
      assert.ok(prompt.summarized && prompt.summarized.hunksShown > 0);
    }
  });

  it('10,000 top-level folders: the folders with most changed lines that fit, then one line for the rest (every file still counted)', () => {
    const diff = Array.from({ length: 10_000 }, (_, i) => {
      const path = `top${i}/f.ts`;
      const lines = 1 + (i % 13);
      return [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, `@@ -1,1 +1,${lines} @@`, ...Array.from({ length: lines }, (_, l) => `+line ${l}`)].join('\n');
    }).join('\n');
    const prompt = buildCommitPrompt({ diff, recentSubjects: [] });
    const text = userText(prompt);
    assert.ok(estimateTextTokens(text.slice(text.indexOf('\n\n') + 2)) <= DEFAULT_DIFF_BUDGET_TOKENS);
    const s = prompt.summarized;
    assert.ok(s?.grouped && s.grouped.foldersLeftOut > 0 && s.grouped.folders > 0);
    const more = /- … and (\d+) more folder\(s\) \((\d+) files\)/.exec(text);
    assert.ok(more && Number(more[1]) === s.grouped.foldersLeftOut);
    const shownFiles = [...text.matchAll(/- top\d+\/ \((\d+) file\)/g)].length;
    assert.strictEqual(shownFiles + Number(more[2]), 10_000);
    assert.ok(text.includes('- top12/ (1 file): +13 −0'), 'a folder with the most changed lines is shown');
    assert.match(summarizedNote(s), /and one for \d+ more/);
  });
});
