/**
 * The prompt that asks a model for a commit message: the repository's recent subjects (its style), then the
 * staged diff. A diff over the token budget is summarized file by file — every file's added/removed counts,
 * then the largest hunks that fit, in file order — and the prompt and the result both say what was left out
 * (never a silent cut).
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { ChatMessage } from '../types';
import { parseDiff, type DiffFile } from './stagedDiff';

export const DEFAULT_DIFF_BUDGET_TOKENS = 12_000;
export const RECENT_SUBJECTS = 10;

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
}

export interface CommitPrompt {
  messages: ChatMessage[];
  /** Set when the diff was over the budget and summarized (the adapter tells the user). */
  summarized?: Summarized;
}

export function buildCommitPrompt(input: CommitPromptInput): CommitPrompt {
  const budget = input.budgetTokens ?? DEFAULT_DIFF_BUDGET_TOKENS;
  const subjects = input.recentSubjects.map((s) => s.split('\n')[0].trim()).filter(Boolean).slice(0, RECENT_SUBJECTS);
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

function summarize(files: DiffFile[], diffTokens: number, budget: number): { text: string; summarized: Summarized } {
  const stats = files.map((f) => `- ${f.path}: ${f.binary ? 'binary' : `+${f.added} −${f.removed}`}, ${f.hunks.length} hunk(s)`).join('\n');
  let left = budget - estimateTextTokens(stats);
  // The largest hunks first (they say most about the change), each kept only if it fits whole.
  const ranked = files.flatMap((file, f) => file.hunks.map((hunk, h) => ({ f, h, tokens: estimateTextTokens(hunk.text) }))).sort((a, b) => b.tokens - a.tokens || a.f - b.f || a.h - b.h);
  const kept = new Set<string>();
  for (const hunk of ranked) {
    if (hunk.tokens > left) continue;
    kept.add(`${hunk.f}:${hunk.h}`);
    left -= hunk.tokens;
  }
  const shown = files.flatMap((file, f) => {
    const hunks = file.hunks.filter((_, h) => kept.has(`${f}:${h}`));
    return hunks.length > 0 ? [`${file.path}\n${hunks.map((h) => h.text).join('\n')}`] : [];
  });
  const total = files.reduce((n, f) => n + f.hunks.length, 0);
  const summarized: Summarized = { files: files.length, hunksShown: kept.size, hunksLeftOut: total - kept.size, diffTokens, budgetTokens: budget };
  const note = `The staged diff (~${diffTokens} tokens) is over the ${budget}-token budget, so it is summarized: every file's line counts, then the ${kept.size} largest of ${total} hunks that fit (${total - kept.size} left out).`;
  return { text: `${note}\n\nFiles changed (${files.length}):\n${stats}\n\nHunks shown:\n\n${shown.join('\n\n')}`, summarized };
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
  return `The staged diff (~${s.diffTokens} tokens) was over the ${s.budgetTokens}-token budget: the model saw every file's line counts and ${s.hunksShown} of ${s.hunksShown + s.hunksLeftOut} hunks (the largest that fit).`;
}
