/**
 * The prompt that asks a model for a commit message: the repository's recent subjects (its style), then the
 * staged diff. A diff over the token budget is summarized — the files' added/removed counts (one line per file,
 * or per folder when there are too many files for that), then the largest hunks that fit, in file order — and
 * the prompt and the result both say what was left out (never a silent cut). The summary fits the budget
 * whatever the change: 10,000 staged files included.
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { ChatMessage } from '../types';
import { listFiles, shownPath, type FileListing } from './fileListing';
import { parseDiff, type DiffFile } from './stagedDiff';

export const DEFAULT_DIFF_BUDGET_TOKENS = 12_000;
/** The summary's note and headings take ~100 tokens: a smaller budget is raised to this. */
export const MIN_DIFF_BUDGET_TOKENS = 300;
export const RECENT_SUBJECTS = 10;
/** A subject longer than this is cut (its style shows in the first characters). */
export const MAX_SUBJECT_CHARS = 200;

export const COMMIT_INSTRUCTIONS = [
  'You write git commit messages for staged changes.',
  'Reply with the commit message only: no code fences, no quotes, no explanation.',
  'A subject line of at most 72 characters in the imperative mood, then, only if the change needs it, a blank line and a short body saying why.',
  "Follow the style of the repository's recent subjects (prefixes such as feat:/fix:, capitalisation, tense, length) when they show one.",
].join('\n');

export interface CommitPromptInput {
  diff: string;
  recentSubjects: readonly string[];
  budgetTokens?: number;
}

export interface Summarized {
  files: number;
  hunksShown: number;
  hunksLeftOut: number;
  diffTokens: number;
  budgetTokens: number;
  /** Set when the files were listed by folder (too many for a line each). */
  grouped?: FileListing['grouped'];
}

export interface CommitPrompt {
  messages: ChatMessage[];
  /** Set when the diff was over the budget and summarized (the adapter tells the user). */
  summarized?: Summarized;
}

export function buildCommitPrompt(input: CommitPromptInput): CommitPrompt {
  const budget = Math.max(MIN_DIFF_BUDGET_TOKENS, input.budgetTokens ?? DEFAULT_DIFF_BUDGET_TOKENS);
  const subjects = input.recentSubjects.map((s) => s.slice(0, MAX_SUBJECT_CHARS).split('\n')[0].trim()).filter(Boolean).slice(0, RECENT_SUBJECTS);
  const style = subjects.length > 0 ? `Recent commit subjects in this repository, newest first:\n${subjects.map((s) => `- ${s}`).join('\n')}` : 'This repository has no earlier commits to take a style from.';
  const diffTokens = estimateTextTokens(input.diff);
  const body = diffTokens <= budget ? { text: `The staged diff:\n\n${input.diff}` } : summarize(parseDiff(input.diff), diffTokens, budget);
  return {
    messages: [
      { role: 'system', parts: [{ kind: 'text', text: COMMIT_INSTRUCTIONS }] },
      { role: 'user', parts: [{ kind: 'text', text: `${style}\n\n${body.text}` }] },
    ],
    ...('summarized' in body ? { summarized: body.summarized } : {}),
  };
}

/**
 * Over the budget: the note saying so, the list of files (at most half of what the note leaves; by folder
 * when one line per file does not fit, fileListing.ts), then the largest whole hunks that fit the rest, in
 * file order. Every piece is counted, file names above the hunks included, so the whole fits the budget.
 */
function summarize(files: DiffFile[], diffTokens: number, budget: number): { text: string; summarized: Summarized } {
  const total = files.reduce((n, f) => n + f.hunks.length, 0);
  // The note with the largest numbers it can hold: the real one is never longer.
  const frame = estimateTextTokens(frameText(files.length, total, total, diffTokens, budget, { folders: files.length, depth: 1, foldersLeftOut: files.length }, '', '')) + 4;
  const listing = listFiles(files, Math.max(0, Math.floor((budget - frame) / 2)));
  let left = budget - frame - listing.tokens;
  // The largest hunks first (they say most about the change), each kept only if it fits whole with its file's name.
  const ranked = files.flatMap((file, f) => file.hunks.map((hunk, h) => ({ f, h, tokens: estimateTextTokens(hunk.text) + 2 }))).sort((a, b) => b.tokens - a.tokens || a.f - b.f || a.h - b.h);
  const kept = new Set<string>();
  const named = new Set<number>();
  for (const hunk of ranked) {
    const cost = hunk.tokens + (named.has(hunk.f) ? 0 : estimateTextTokens(shownPath(files[hunk.f].path)) + 3);
    if (cost > left) continue;
    kept.add(`${hunk.f}:${hunk.h}`);
    named.add(hunk.f);
    left -= cost;
  }
  const shown = files.flatMap((file, f) => {
    const hunks = file.hunks.filter((_, h) => kept.has(`${f}:${h}`));
    return hunks.length > 0 ? [`${shownPath(file.path)}\n${hunks.map((h) => h.text).join('\n')}`] : [];
  });
  const summarized: Summarized = { files: files.length, hunksShown: kept.size, hunksLeftOut: total - kept.size, diffTokens, budgetTokens: budget, ...(listing.grouped ? { grouped: listing.grouped } : {}) };
  return { text: frameText(files.length, kept.size, total, diffTokens, budget, listing.grouped, listing.text, shown.join('\n\n')), summarized };
}

function frameText(files: number, shown: number, total: number, diffTokens: number, budget: number, grouped: FileListing['grouped'], listing: string, hunks: string): string {
  const counts = grouped ? `line counts by folder (${files} files: too many to list one by one)` : "every file's line counts";
  const note = `The staged diff (~${diffTokens} tokens) is over the ${budget}-token budget, so it is summarized: ${counts}, then the ${shown} largest of ${total} hunks that fit (${total - shown} left out).`;
  const heading = grouped ? `Files changed (${files}), by folder (${grouped.folders} folder(s)${grouped.foldersLeftOut > 0 ? `, ${grouped.foldersLeftOut} more in the last line` : ''}):` : `Files changed (${files}):`;
  return `${note}\n\n${heading}\n${listing}\n\nHunks shown:\n\n${hunks}`;
}

/** The model's answer as a commit message: fences and surrounding quotes removed, trailing space trimmed. */
export function cleanCommitMessage(answer: string): string {
  let text = answer.trim();
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```$/.exec(text);
  if (fenced) text = fenced[1].trim();
  if (/^(["'`]).*\1$/s.test(text) && !text.includes('\n')) text = text.slice(1, -1);
  return text.replace(/[ \t]+$/gm, '');
}

/** What the user is told when the diff was summarized. */
export function summarizedNote(s: Summarized): string {
  const files = s.grouped ? `line counts by folder (${s.files} files in ${s.grouped.folders} folder lines${s.grouped.foldersLeftOut > 0 ? ` and one for ${s.grouped.foldersLeftOut} more` : ''})` : "every file's line counts";
  return `The staged diff (~${s.diffTokens} tokens) was over the ${s.budgetTokens}-token budget: the model saw ${files} and ${s.hunksShown} of ${s.hunksShown + s.hunksLeftOut} hunks (the largest that fit).`;
}
