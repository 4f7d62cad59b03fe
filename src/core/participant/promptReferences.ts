/**
 * What @opencode sends for one chat request: the user's prompt plus everything attached to it — pasted text,
 * #file contents, selections, images — the way the chat view shows them, within a token allowance. The chat
 * view only puts a marker such as `#attachment:Pasted text #1` into the prompt text; without this the model saw
 * the marker and nothing else. Pure: the adapter resolves each reference's value first.
 */
import { estimateTextTokens } from '../tokens/estimate';

export type ResolvedReference =
  | { kind: 'text'; name: string; text: string }
  | { kind: 'image'; name: string; mimeType: string; data: Uint8Array }
  | { kind: 'unavailable'; name: string; reason: string };

export type PromptPart = { kind: 'text'; text: string } | { kind: 'image'; mimeType: string; data: Uint8Array };

export interface ComposedPrompt {
  parts: PromptPart[];
  /** One short phrase per reference that was left out or cut, for the answer's footer. */
  notes: string[];
}

export interface ComposeOptions {
  /** Tokens the attachments may take together. */
  maxTokens: number;
  imageInput: boolean;
}

const TRUNCATION_MARK = '\n[… the rest was cut to fit the model\'s window …]';

/** The reference's name as the chat view shows it: the marker in the prompt without `#`/`#kind:`. */
export function referenceName(prompt: string, range: [number, number] | undefined, fallback: string): string {
  if (range && range[0] >= 0 && range[1] <= prompt.length && range[0] < range[1]) {
    const marker = prompt.slice(range[0], range[1]).replace(/^#/, '');
    const colon = marker.indexOf(':');
    return colon > 0 ? marker.slice(colon + 1) : marker;
  }
  return fallback;
}

/**
 * An image's name for the footer: VS Code names a pasted image by a content hash (64 hex characters) where it has
 * no file name; the footer then says "pasted image (PNG)" instead of the hash.
 */
export function imageName(name: string, mimeType: string): string {
  if (!/^[0-9a-f]{32,}$/i.test(name.trim()) && name.trim()) return name;
  const type = /^image\/([\w.+-]+)$/i.exec(mimeType)?.[1]?.toUpperCase() ?? 'image';
  return `pasted image (${type})`;
}

export interface TypedFileMarker {
  path: string;
  range: [number, number];
}

/**
 * `#file:<path>` typed as plain text (no completion picked it, so VS Code sent no reference for it): the markers
 * no reference's range covers, in prompt order. Trailing sentence punctuation is not part of the path.
 */
export function typedFileMarkers(prompt: string, covered: readonly (readonly [number, number])[]): TypedFileMarker[] {
  const markers: TypedFileMarker[] = [];
  for (const match of prompt.matchAll(/(^|\s)#file:(\S+)/g)) {
    const path = match[2].replace(/[.,;:!?)\]'"]+$/, '');
    if (!path) continue;
    const start = (match.index ?? 0) + match[1].length;
    const end = start + '#file:'.length + path.length;
    if (covered.some(([a, b]) => start < b && a < end)) continue;
    markers.push({ path, range: [start, end] });
  }
  return markers;
}

/** The longest prefix of `text` whose estimate fits `tokens` (binary search on length). */
function cutToTokens(text: string, tokens: number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTextTokens(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}

function attachmentText(name: string, text: string): string {
  return `<attachment name=${JSON.stringify(name)}>\n${text}\n</attachment>`;
}

export function composePrompt(prompt: string, references: readonly ResolvedReference[], options: ComposeOptions): ComposedPrompt {
  const parts: PromptPart[] = [];
  const notes: string[] = [];
  let left = Math.max(0, options.maxTokens);
  for (const ref of references) {
    if (ref.kind === 'unavailable') {
      notes.push(`${ref.name} (${ref.reason})`);
    } else if (ref.kind === 'image') {
      if (options.imageInput) parts.push({ kind: 'image', mimeType: ref.mimeType, data: ref.data });
      else notes.push(`${ref.name} (this model does not take images)`);
    } else {
      const tokens = estimateTextTokens(ref.text);
      if (tokens <= left) {
        parts.push({ kind: 'text', text: attachmentText(ref.name, ref.text) });
        left -= tokens;
      } else if (left > 64) {
        parts.push({ kind: 'text', text: attachmentText(ref.name, cutToTokens(ref.text, left - 16) + TRUNCATION_MARK) });
        notes.push(`${ref.name} (cut to ~${left} of ~${tokens} tokens to fit the model's window)`);
        left = 0;
      } else {
        notes.push(`${ref.name} (~${tokens} tokens: no room left in the model's window)`);
      }
    }
  }
  parts.push({ kind: 'text', text: prompt });
  return { parts, notes };
}

/** The answer's footer line, or undefined when everything was included. */
export function omittedFooter(notes: readonly string[]): string | undefined {
  return notes.length ? `Not included in full: ${notes.join('; ')}.` : undefined;
}
