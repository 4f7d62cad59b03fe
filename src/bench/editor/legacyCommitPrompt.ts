/**
 * THE OLD COMMIT PROMPT, kept for the bench's side-by-side only (never used by the extension): before issue
 * 29 every file got a line of its own whatever their number, outside any budget. Copied unchanged but for its
 * name and the fields it no longer returns.
 */
import { COMMIT_INSTRUCTIONS, DEFAULT_DIFF_BUDGET_TOKENS, RECENT_SUBJECTS, type CommitPromptInput } from '../../core/commit/commitPrompt';
import { parseDiff, type DiffFile } from '../../core/commit/stagedDiff';
import { estimateTextTokens } from '../../core/tokens/estimate';
import type { ChatMessage } from '../../core/types';

export function legacyCommitPromptBeforeIssue29(input: CommitPromptInput): { messages: ChatMessage[] } {
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
  };
}

function summarize(files: DiffFile[], diffTokens: number, budget: number): { text: string; summarized: object } {
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
  const summarized = { files: files.length, hunksShown: kept.size, hunksLeftOut: total - kept.size, diffTokens, budgetTokens: budget };
  const note = `The staged diff (~${diffTokens} tokens) is over the ${budget}-token budget, so it is summarized: every file's line counts, then the ${kept.size} largest of ${total} hunks that fit (${total - kept.size} left out).`;
  return { text: `${note}\n\nFiles changed (${files.length}):\n${stats}\n\nHunks shown:\n\n${shown.join('\n\n')}`, summarized };
}

