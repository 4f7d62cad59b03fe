/**
 * THE OLD INLINE PROMPT, kept for the bench's side-by-side only (never used by the extension): the prompt
 * builder as it was before issue 29 — the whole text in (`document.getText()`), the head cut by re-measuring
 * the joined rest for every 32-line block (quadratic in the file), no cut of long lines. Copied unchanged but
 * for its name and the fields it no longer returns.
 */
import { ANCHOR_LINES, CURSOR, INLINE_INSTRUCTIONS, READY } from '../../core/inline/inlinePrompt';
import { estimateTextTokens } from '../../core/tokens/estimate';
import type { ChatMessage } from '../../core/types';

export interface LegacyDocument {
  path: string;
  languageId: string;
  text: string;
}

export interface LegacyInlineContext {
  document: LegacyDocument;
  offset: number;
  neighbours?: readonly LegacyDocument[];
}

export function legacyInlinePromptBeforeIssue29(context: LegacyInlineContext): { messages: ChatMessage[] } {
  const budget = { headTokens: 6_000, neighbourTokens: 2_000, suffixTokens: 500 };
  const { text, path, languageId } = context.document;
  const offset = Math.max(0, Math.min(context.offset, text.length));
  const before = text.slice(0, offset);
  const lineStarts = startsOfLines(before);
  const cursorLine = lineStarts.length - 1;
  const anchorLine = Math.floor(cursorLine / ANCHOR_LINES) * ANCHOR_LINES;
  const anchorOffset = lineStarts[anchorLine];
  const head = headWithin(before.slice(0, anchorOffset), budget.headTokens);
  const suffix = suffixWithin(text.slice(offset), budget.suffixTokens);
  const stable = [
    ...neighbourSections(context.neighbours ?? [], path, budget.neighbourTokens),
    `File: ${path} (${languageId})`,
    head.dropped > 0 ? `[the first ${head.dropped} lines are left out]` : '',
    `<file>\n${head.text}`,
  ].filter(Boolean).join('\n\n');
  const volatile = `${before.slice(anchorOffset)}${CURSOR}${suffix}\n</file>`;
  return {
    messages: [
      { role: 'system', parts: [{ kind: 'text', text: INLINE_INSTRUCTIONS }] },
      { role: 'user', parts: [{ kind: 'text', text: stable }] },
      { role: 'assistant', parts: [{ kind: 'text', text: READY }] },
      { role: 'user', parts: [{ kind: 'text', text: volatile }] },
    ],
  };
}

function startsOfLines(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The head within its budget: whole blocks of ANCHOR_LINES dropped from the start, so for a given head the
 * cut is always the same (it moves only when the anchor does).
 */
function headWithin(head: string, maxTokens: number): { text: string; dropped: number } {
  if (estimateTextTokens(head) <= maxTokens) return { text: head, dropped: 0 };
  const lines = head.split('\n');
  for (let drop = ANCHOR_LINES; drop < lines.length; drop += ANCHOR_LINES) {
    const rest = lines.slice(drop).join('\n');
    if (estimateTextTokens(rest) <= maxTokens) return { text: rest, dropped: drop };
  }
  return { text: '', dropped: lines.length - 1 };
}

/** The text after the cursor, whole lines while within the budget. */
function suffixWithin(after: string, maxTokens: number): string {
  if (estimateTextTokens(after) <= maxTokens) return after;
  const lines = after.split('\n');
  let out = lines[0];
  for (let i = 1; i < lines.length; i++) {
    const next = `${out}\n${lines[i]}`;
    if (estimateTextTokens(next) > maxTokens) break;
    out = next;
  }
  return out;
}

/** Neighbouring files in path order (not recency: the order must not change as the user switches tabs), each cut to whole lines. */
function neighbourSections(neighbours: readonly LegacyDocument[], self: string, maxTokens: number): string[] {
  const sections: string[] = [];
  let left = maxTokens;
  const sorted = [...neighbours].filter((n) => n.path !== self).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const neighbour of sorted) {
    if (left <= 0) break;
    const text = suffixWithin(neighbour.text, left);
    if (!text.trim()) continue;
    left -= estimateTextTokens(text);
    sections.push(`Open file: ${neighbour.path} (${neighbour.languageId})\n<file>\n${text}\n</file>`);
  }
  return sections;
}
