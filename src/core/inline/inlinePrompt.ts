/**
 * The prompt of one inline suggestion, stable part first so the provider's prompt cache serves it while the
 * user types: the system message holds the fixed instructions; the first user message the neighbouring open
 * files, the file's path and its text up to the anchor (a line on a fixed grid above the cursor); then a fixed
 * acknowledgement; the last user message only what changes as the user types — the lines from the anchor to
 * the cursor, the cursor mark and the text after it. Editing below the anchor changes no byte of the first
 * three messages, and so neither the conversation's session id (derived from its opening, sessionId.ts),
 * which keeps the requests on one prompt cache.
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { ChatMessage } from '../types';

export const CURSOR = '<|cursor|>';

/** The anchor moves in steps of this many lines, so the stable part changes once per step, not per line. */
export const ANCHOR_LINES = 32;

export interface InlineBudget {
  /** The file's text before the anchor. */
  headTokens: number;
  /** All neighbouring files together. */
  neighbourTokens: number;
  /** The text after the cursor. */
  suffixTokens: number;
}

export const DEFAULT_INLINE_BUDGET: InlineBudget = { headTokens: 6_000, neighbourTokens: 2_000, suffixTokens: 500 };

export interface InlineDocument {
  path: string;
  languageId: string;
  text: string;
}

export interface InlineContext {
  document: InlineDocument;
  /** Offset of the cursor in document.text. */
  offset: number;
  /** Other open files, nearest first; used within the neighbour budget, in path order (stable). */
  neighbours?: readonly InlineDocument[];
  budget?: InlineBudget;
}

export interface InlinePrompt {
  messages: ChatMessage[];
  /** The first user message's text: the part that stays the same while the user edits below the anchor. */
  stable: string;
  /** The text on the cursor's line before the cursor (the answer cleaner strips an echo of it). */
  linePrefix: string;
  /** The text after the cursor (the cleaner strips an answer's overlap with it). */
  suffix: string;
}

export const INLINE_INSTRUCTIONS = [
  'You are a code completion engine inside an editor.',
  `Reply with only the text to insert at ${CURSOR}: no explanation, no code fences, no repetition of the text around it.`,
  'Continue the code the way the file is written (indentation, naming, style). Prefer a short, certain completion: the rest of the line or statement, at most a few lines.',
  `If nothing should be inserted, reply with nothing.`,
].join('\n');

/** The fixed answer to the stable part, so the volatile part is a user turn of its own on every route. */
export const READY = 'Ready: send the text around the cursor.';

export function buildInlinePrompt(context: InlineContext): InlinePrompt {
  const budget = context.budget ?? DEFAULT_INLINE_BUDGET;
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
    stable,
    linePrefix: before.slice(lineStarts[cursorLine]),
    suffix,
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
function neighbourSections(neighbours: readonly InlineDocument[], self: string, maxTokens: number): string[] {
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
