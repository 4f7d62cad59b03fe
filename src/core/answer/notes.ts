/**
 * The short lines the user reads inside the answer when it did not end the normal way. They are part of the
 * answer's text (VS Code keeps them in the history), so they are worded once, here, and never change per turn.
 */

/** The answer was cut after some of it was shown: the text stays, and this says why. */
export function cutNote(reason: string): string {
  return `\n\n*(The answer was cut off: ${reason}. What arrived is kept; ask again to continue.)*`;
}

/** The provider stopped the answer for its own reasons (a safety or recitation filter) after some text. */
export function stoppedNote(wireReason: string): string {
  return `\n\n*(The provider stopped the answer here: ${wireReason || 'content filter'}.)*`;
}
