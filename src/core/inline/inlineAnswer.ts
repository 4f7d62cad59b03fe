/**
 * The model's answer made into the text to insert: code fences removed, an echo of the line before the
 * cursor removed, what repeats the text after the cursor removed, at most `maxLines` lines.
 */

export const MAX_SUGGESTION_LINES = 12;

export function cleanSuggestion(answer: string, linePrefix: string, suffix: string, maxLines = MAX_SUGGESTION_LINES): string {
  let text = withoutFences(answer);
  const prefix = linePrefix.trimStart();
  if (prefix && text.trimStart().startsWith(prefix)) text = text.trimStart().slice(prefix.length);
  text = text.split('\n').slice(0, maxLines).join('\n').replace(/\s+$/, '');
  return withoutSuffixOverlap(text, suffix);
}

function withoutFences(answer: string): string {
  const fenced = /^\s*```[^\n]*\n([\s\S]*?)\n?```\s*$/.exec(answer);
  return fenced ? fenced[1] : answer;
}

/** `foo(a` + suggestion `, b)` with `)` already after the cursor: the trailing `)` is dropped. */
function withoutSuffixOverlap(text: string, suffix: string): string {
  const firstLine = suffix.split('\n')[0].trimEnd();
  for (let n = Math.min(firstLine.length, text.length); n > 0; n--) {
    if (text.endsWith(firstLine.slice(0, n)) && firstLine.slice(0, n).trim()) return text.slice(0, text.length - n);
  }
  return text;
}
