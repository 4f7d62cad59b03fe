/**
 * Where inline suggestions are offered: documents the user edits as code — a file or an untitled document — and
 * only in the languages `opencode.inlineSuggestions.languages` names ("*": every language). Never VS Code's chat
 * input, Source Control's commit box, an output channel or the settings editor: those are text documents too (with
 * their own URI schemes), and a suggestion there would send a request per pause of the user's typing.
 */

/** The URI schemes of documents a user edits as code. */
export const INLINE_SCHEMES: readonly string[] = ['file', 'untitled'];

export function offersInline(scheme: string, languageId: string, languages: readonly string[]): boolean {
  if (!INLINE_SCHEMES.includes(scheme)) return false;
  return languages.includes('*') || languages.includes(languageId);
}
