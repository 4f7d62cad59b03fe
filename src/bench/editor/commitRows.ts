/**
 * Bench rows for the commit message prompt (issue 29): 1,000 and 10,000 staged files (each two hunks, in
 * folders up to four deep), the prompt's size and build time with the old builder (legacyCommitPrompt.ts:
 * one line per file outside the budget) and the new one (the file list budgeted, by folder when needed).
 */
import { performance } from 'perf_hooks';
import { buildCommitPrompt, DEFAULT_DIFF_BUDGET_TOKENS } from '../../core/commit/commitPrompt';
import { estimateTextTokens } from '../../core/tokens/estimate';
import type { ChatMessage } from '../../core/types';
import { median } from '../metrics/stats';
import { legacyCommitPromptBeforeIssue29 } from './legacyCommitPrompt';

export interface CommitRow {
  files: number;
  diffKiB: number;
  code: 'old' | 'new';
  promptTokens: number;
  buildMedianMs: number;
  listing: string;
}

const RUNS = 5;

/** A staged diff of `count` files: two hunks each (3 and 8 added lines, one removed), folders `pkgN/srcM/…`. */
export function stagedDiffOf(count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const path = [`pkg${i % 40}`, ...Array.from({ length: i % 4 }, (_, d) => `dir${(i + d) % 9}`), `file${i}.ts`].join('/');
    const hunk = (h: number, n: number) => [`@@ -${h * 40 + 1},1 +${h * 40 + 1},${n} @@`, ...Array.from({ length: n }, (_, l) => `+  const changed${l} = update${h}(${i}, options);`), '-  legacy();'].join('\n');
    return [`diff --git a/${path} b/${path}`, 'index 1234567..89abcde 100644', `--- a/${path}`, `+++ b/${path}`, hunk(0, 3), hunk(1, 8)].join('\n');
  }).join('\n');
}

const textOf = (messages: readonly ChatMessage[]): string => messages.map((m) => m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')).join('\n');

export function measureCommit(): CommitRow[] {
  const rows: CommitRow[] = [];
  for (const files of [1_000, 10_000]) {
    const diff = stagedDiffOf(files);
    const input = { diff, recentSubjects: ['feat: add the thing', 'fix: the other thing'] };
    for (const code of ['old', 'new'] as const) {
      const times: number[] = [];
      let messages: ChatMessage[] = [];
      let listing = 'one line per file';
      for (let r = 0; r < RUNS; r++) {
        const started = performance.now();
        if (code === 'old') messages = legacyCommitPromptBeforeIssue29(input).messages;
        else {
          const prompt = buildCommitPrompt(input);
          messages = prompt.messages;
          const g = prompt.summarized?.grouped;
          if (g) listing = `by folder (${g.folders} folder lines, depth ${g.depth}${g.foldersLeftOut ? `, ${g.foldersLeftOut} in a last line` : ''})`;
        }
        times.push(performance.now() - started);
      }
      rows.push({ files, diffKiB: Buffer.byteLength(diff) / 1024, code, promptTokens: estimateTextTokens(textOf(messages)), buildMedianMs: median(times), listing });
    }
  }
  return rows;
}

export function commitTable(rows: readonly CommitRow[]): string {
  const head = `| Staged files | Diff | Code | Prompt (budget ${DEFAULT_DIFF_BUDGET_TOKENS.toLocaleString('en-US')} tokens for the diff) | File list | Build, median of ${RUNS} |\n|---|---|---|---|---|---|`;
  return [head, ...rows.map((r) => `| ${r.files.toLocaleString('en-US')} | ${(r.diffKiB / 1024).toFixed(1)} MiB | ${r.code} | ~${r.promptTokens.toLocaleString('en-US')} tokens | ${r.listing} | ${r.buildMedianMs.toFixed(0)} ms |`)].join('\n');
}
