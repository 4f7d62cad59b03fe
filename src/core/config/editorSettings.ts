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
    },
    commitMessageModel: readText(read, warn, 'commitMessage.model', ''),
  };
}
