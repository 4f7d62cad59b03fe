/**
 * The settings of the editor features beyond chat: inline suggestions and commit messages
 * (`opencode.inlineSuggestions.*`, `opencode.commitMessage.*`). Read by resolveSettings like every other
 * setting, with the same rules (a wrong value warns and falls back).
 */
import type { ReadSetting, Warn } from './settings';
import { readBoolean, readNumber, readText } from './settings';

export interface InlineSuggestionSettings {
  /** Off by default; the status-bar item toggles it. */
  enabled: boolean;
  /** The OpenCode model id that writes the suggestions; empty: the toggle asks for one. */
  model: string;
  /** Quiet time after the last keystroke before a request is sent. */
  debounceMs: number;
  /** A suggestion later than this is dropped (the request is stopped). */
  maxLatencyMs: number;
  /** The most tokens a suggestion may have. */
  maxTokens: number;
  /** Language ids that get suggestions ("*": all); only in file and untitled documents (inlineWhere.ts). */
  languages: readonly string[];
}

export interface EditorSettings {
  inlineSuggestions: InlineSuggestionSettings;
  /** The OpenCode model id that writes commit messages; empty: the command asks for one. */
  commitMessageModel: string;
}

export function resolveEditorSettings(read: ReadSetting, warn: Warn): EditorSettings {
  return {
    inlineSuggestions: {
      enabled: readBoolean(read, warn, 'inlineSuggestions.enabled', false),
      model: readText(read, warn, 'inlineSuggestions.model', ''),
      debounceMs: readNumber(read, warn, 'inlineSuggestions.debounceMs', 300, 0, 5_000, true),
      maxLatencyMs: readNumber(read, warn, 'inlineSuggestions.maxLatencyMs', 5_000, 500, 60_000, true),
      maxTokens: readNumber(read, warn, 'inlineSuggestions.maxTokens', 256, 16, 4_096, true),
      languages: readInlineLanguages(read('inlineSuggestions.languages'), warn),
    },
    commitMessageModel: readText(read, warn, 'commitMessage.model', ''),
  };
}

/** The most language ids the setting may name (more are ignored, with a warning). */
export const MAX_INLINE_LANGUAGES = 200;

/** The setting's value: a list of language ids; anything else warns and means every language. */
export function readInlineLanguages(raw: unknown, warn: (message: string) => void): readonly string[] {
  if (raw === undefined || raw === null) return ['*'];
  if (!Array.isArray(raw) || raw.some((item) => typeof item !== 'string')) {
    warn(`opencode.inlineSuggestions.languages ${JSON.stringify(raw).slice(0, 200)} is not a list of language ids; using ["*"].`);
    return ['*'];
  }
  const ids = [...new Set((raw as string[]).slice(0, 10 * MAX_INLINE_LANGUAGES).map((id) => id.trim()).filter((id) => id.length > 0 && id.length <= 100))];
  if (ids.length > MAX_INLINE_LANGUAGES) warn(`opencode.inlineSuggestions.languages names ${ids.length} languages; using the first ${MAX_INLINE_LANGUAGES}.`);
  return ids.slice(0, MAX_INLINE_LANGUAGES);
}
