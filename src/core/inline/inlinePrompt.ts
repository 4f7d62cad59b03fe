/**
 * The prompt of one inline suggestion, stable part first so the provider's prompt cache serves it while the
 * user types: the system message holds the fixed instructions; the first user message the neighbouring open
 * files, the file's path and its text up to the anchor (a line on a fixed grid above the cursor); then a fixed
 * acknowledgement; the last user message only what changes as the user types — the lines from the anchor to
 * the cursor, the cursor mark and the text after it. Editing below the anchor changes no byte of the first
 * three messages, and so neither the conversation's session id (derived from its opening, sessionId.ts),
 * which keeps the requests on one prompt cache.
 *
 * Built after the debounce, from a bounded window of the document (inlineWindow.ts): the lines the budgets
 * keep are the only lines read, each cut to a fixed length, so the time grows with what is kept, never with
 * the file (a 20,000-line file or a 2 MB line costs what a short file does).
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { ChatMessage } from '../types';
import { cutBeforeNote, cutNote, fitLine, linesBackward, linesForward, MAX_LINE_CHARS, type InlineLines } from './inlineWindow';

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
  /** The lines from the anchor to the cursor, the cursor's line before the cursor included. */
  nearTokens: number;
}

export const DEFAULT_INLINE_BUDGET: InlineBudget = { headTokens: 6_000, neighbourTokens: 2_000, suffixTokens: 500, nearTokens: 1_000 };

export interface InlineDocument {
  path: string;
  languageId: string;
  /** Read line by line; only the lines the budgets keep are read. */
  lines: InlineLines;
}

/** A place in a document: the line and the character (UTF-16 unit) within it, as VS Code's Position. */
export interface InlineCursor {
  line: number;
  character: number;
}

export interface InlineContext {
  document: InlineDocument;
  cursor: InlineCursor;
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


/** Room kept in the near budget for the notes that say what was left out. */
const NOTE_TOKENS = 24;

/** Longest path shown (a path is outside data too). */
const MAX_PATH_CHARS = 300;

export function buildInlinePrompt(context: InlineContext): InlinePrompt {
  const budget = context.budget ?? DEFAULT_INLINE_BUDGET;
  const { lines, languageId } = context.document;
  const path = shownPath(context.document.path);
  const cursorLine = Math.max(0, Math.min(context.cursor.line, lines.lineCount - 1));
  const lineText = lines.line(cursorLine);
  const character = Math.max(0, Math.min(context.cursor.character, lineText.length));
  const anchorLine = Math.floor(cursorLine / ANCHOR_LINES) * ANCHOR_LINES;

  const head = linesBackward(lines, anchorLine - 1, 0, budget.headTokens);
  const headStart = anchorLine - head.lines.length;
  const stable = [
    ...neighbourSections(context.neighbours ?? [], context.document.path, budget.neighbourTokens),
    `File: ${path} (${languageId})`,
    headStart > 0 ? `[the first ${headStart} lines are left out]` : '',
    `<file>\n${head.lines.map((l) => `${l}\n`).join('')}`,
  ].filter(Boolean).join('\n\n');

  const near = nearText(lines, anchorLine, cursorLine, lineText.slice(0, character), budget.nearTokens);
  const suffix = suffixText(lines, cursorLine, lineText.slice(character), budget.suffixTokens);
  const volatile = `${near.text}${CURSOR}${suffix}\n</file>`;
  return {
    messages: [
      { role: 'system', parts: [{ kind: 'text', text: INLINE_INSTRUCTIONS }] },
      { role: 'user', parts: [{ kind: 'text', text: stable }] },
      { role: 'assistant', parts: [{ kind: 'text', text: READY }] },
      { role: 'user', parts: [{ kind: 'text', text: volatile }] },
    ],
    stable,
    linePrefix: near.linePrefix,
    suffix,
  };
}

/**
 * From the anchor to the cursor: the cursor's line before the cursor (its end kept: what is nearest the
 * cursor), then the lines above it up to the anchor while they fit; lines left out are said so.
 */
function nearText(lines: InlineLines, anchorLine: number, cursorLine: number, beforeCursor: string, maxTokens: number): { text: string; linePrefix: string } {
  const prefix = fitLine(beforeCursor, MAX_LINE_CHARS, Math.floor((maxTokens - NOTE_TOKENS) / 2), 'end');
  const above = linesBackward(lines, cursorLine - 1, anchorLine, maxTokens - NOTE_TOKENS - estimateTextTokens(prefix.text) - 1);
  const left = cursorLine - anchorLine - above.lines.length;
  const gap = left > 0 ? `[${left} lines left out]\n` : '';
  const cut = prefix.cut > 0 ? cutBeforeNote(prefix.cut) : '';
  const kept = `${above.lines.map((l) => `${l}\n`).join('')}${prefix.text}`;
  const noted = `${gap}${above.lines.map((l) => `${l}\n`).join('')}${cut}${prefix.text}`;
  // A budget too small for the notes gets the text alone.
  return { text: noted === kept || estimateTextTokens(noted) <= maxTokens ? noted : kept, linePrefix: prefix.text };
}

/** After the cursor: the rest of the cursor's line (its start kept), then whole lines while within the budget. */
function suffixText(lines: InlineLines, cursorLine: number, afterCursor: string, maxTokens: number): string {
  const rest = fitLine(afterCursor, MAX_LINE_CHARS, Math.floor(maxTokens / 2), 'start');
  const noted = `${rest.text}${cutNote(rest.cut)}`;
  const restText = rest.cut > 0 && estimateTextTokens(noted) <= maxTokens / 2 ? noted : rest.text;
  const below = linesForward(lines, cursorLine + 1, lines.lineCount, maxTokens - estimateTextTokens(restText) - 1);
  return [restText, ...below.lines].join('\n');
}

/** Neighbouring files in path order (not recency: the order must not change as the user switches tabs), each its first lines within what is left. */
function neighbourSections(neighbours: readonly InlineDocument[], self: string, maxTokens: number): string[] {
  const sections: string[] = [];
  let left = maxTokens;
  const sorted = [...neighbours].filter((n) => n.path !== self).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const neighbour of sorted) {
    const open = `Open file: ${shownPath(neighbour.path)} (${neighbour.languageId})\n<file>\n`;
    const close = '\n</file>';
    // The section's own lines and the blank line between sections count too.
    const frame = estimateTextTokens(open) + estimateTextTokens(close) + 2;
    if (left - frame <= 0) break;
    const run = linesForward(neighbour.lines, 0, neighbour.lines.lineCount, left - frame);
    const text = run.lines.join('\n');
    if (!text.trim()) continue;
    left -= run.tokens + frame;
    sections.push(`${open}${text}${close}`);
  }
  return sections;
}

function shownPath(path: string): string {
  return path.length > MAX_PATH_CHARS ? `…${path.slice(path.length - MAX_PATH_CHARS)}` : path;
}
