/**
 * Bounded reading of a document for the inline prompt: the document is read line by line (VS Code's
 * `TextDocument.lineAt` hands back the line it already holds: no copy, no join of the file), only the lines
 * the budgets keep are read, and every line is cut to a fixed size first, so a 2 MB minified line costs the
 * same as a short one. Every cut depends only on the text it cuts (prefix stability).
 */
import { estimateTextTokens } from '../tokens/estimate';

/** A document as lines (without their line ends). */
export interface InlineLines {
  readonly lineCount: number;
  line(index: number): string;
}

/** Longest piece of one line kept in a prompt (a minified line is cut to this, with a note saying so). */
export const MAX_LINE_CHARS = 400;

/** The lines of a text, split once (tests, the bench, and any caller holding the whole text). */
export function linesOfText(text: string): InlineLines {
  const lines = text.split(/\r?\n/);
  return { lineCount: lines.length, line: (i) => lines[i] ?? '' };
}

/** Where a cut at `at` may fall without splitting a surrogate pair (moves the cut toward the kept side's outside). */
function safeCut(text: string, at: number, keep: 'start' | 'end'): number {
  const code = text.charCodeAt(at - 1);
  if (at <= 0 || at >= text.length || code < 0xd800 || code >= 0xdc00) return at;
  return keep === 'start' ? at - 1 : at + 1;
}

export interface FittedLine {
  text: string;
  /** Characters left out of the line. */
  cut: number;
}

/**
 * A line within `maxChars` and `maxTokens`: the start kept (`keep: 'start'`) or the end (`'end'`). Linear in
 * what it keeps: the line is sliced to `maxChars` before anything measures it.
 */
export function fitLine(line: string, maxChars: number, maxTokens: number, keep: 'start' | 'end'): FittedLine {
  let chars = Math.min(line.length, maxChars);
  for (;;) {
    const at = keep === 'start' ? safeCut(line, chars, 'start') : safeCut(line, line.length - chars, 'end');
    const text = keep === 'start' ? line.slice(0, at) : line.slice(at);
    if (text.length === 0 || estimateTextTokens(text) <= maxTokens) return { text, cut: line.length - text.length };
    // Over the tokens (dense symbols): shrink by a fixed fraction, so the result depends on the line alone.
    chars = Math.floor(text.length * 0.75);
  }
}

/** A line cut at its end, as the prompt shows it: the kept start, then a note with what was left out. */
export function shownLine(line: string, maxTokens: number): string {
  const fitted = fitLine(line, MAX_LINE_CHARS, maxTokens, 'start');
  return fitted.cut > 0 ? `${fitted.text}${cutNote(fitted.cut)}` : fitted.text;
}

export const cutNote = (chars: number): string => `[… ${chars} more characters on this line]`;
/** Before the kept end of the cursor's line. */
export const cutBeforeNote = (chars: number): string => `[${chars} characters before this on the line are left out …]`;

export interface LineRun {
  /** The kept lines, in document order, each as shown (cut to MAX_LINE_CHARS). */
  lines: string[];
  /** Estimated tokens of `lines.join('\n')`. */
  tokens: number;
}

/**
 * Lines `from`, `from − 1`, … down to `stop` (inclusive), kept while their tokens fit `maxTokens`; returned
 * in document order. The nearest lines are kept: the cut falls at the far end.
 */
export function linesBackward(doc: InlineLines, from: number, stop: number, maxTokens: number): LineRun {
  const kept: string[] = [];
  let used = 0;
  for (let i = from; i >= stop && i >= 0; i--) {
    const line = shownLine(doc.line(i), maxTokens);
    const cost = estimateTextTokens(line) + 1;
    if (used + cost > maxTokens) break;
    kept.push(line);
    used += cost;
  }
  kept.reverse();
  return within({ lines: kept, tokens: used }, maxTokens, 'end');
}

/** Lines `from`, `from + 1`, … up to `stop` (exclusive), kept while their tokens fit: the cut falls at the end. */
export function linesForward(doc: InlineLines, from: number, stop: number, maxTokens: number): LineRun {
  const kept: string[] = [];
  let used = 0;
  for (let i = from; i < stop && i < doc.lineCount; i++) {
    const line = shownLine(doc.line(i), maxTokens);
    const cost = estimateTextTokens(line) + 1;
    if (used + cost > maxTokens) break;
    kept.push(line);
    used += cost;
  }
  return within({ lines: kept, tokens: used }, maxTokens, 'start');
}

/**
 * The sum of per-line estimates is close to the estimate of the joined text but not exact; this measures the
 * joined text once and, while it is over, drops lines from the far end (a tenth at a time). Linear in what is
 * kept; the common case measures once.
 */
function within(run: LineRun, maxTokens: number, keep: 'start' | 'end'): LineRun {
  let lines = run.lines;
  let tokens = estimateTextTokens(lines.join('\n'));
  while (tokens > maxTokens && lines.length > 0) {
    const drop = Math.max(1, Math.ceil(lines.length / 10));
    lines = keep === 'start' ? lines.slice(0, lines.length - drop) : lines.slice(drop);
    tokens = estimateTextTokens(lines.join('\n'));
  }
  return { lines, tokens };
}
