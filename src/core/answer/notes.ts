/**
 * The short line the user reads inside the answer when the provider stopped it (a cut answer is an error after
 * the text instead: core/request/streamErrors.ts CutAnswerError). They are part of the
 * answer's text (VS Code keeps them in the history), so they are worded once, here, and never change per turn.
 */

/** The provider stopped the answer for its own reasons (a safety or recitation filter) after some text. */
export function stoppedNote(wireReason: string): string {
  return `\n\n*(The provider stopped the answer here: ${wireReason || 'content filter'}.)*`;
}
