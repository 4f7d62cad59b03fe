/**
 * The `[settings]` line written when the user changes an `opencode.*` setting: every value that changed,
 * old → new, as the extension resolved it (clamped values show what is actually used), each named by the key
 * the user sets (`opencode.commitMessage.model`, not the resolved object's `editor.commitMessageModel`). The API
 * key is never a setting, so nothing secret can appear here; URLs are written redacted.
 */
import type { Settings } from './settings';
import { redactUrl } from '../util/redact';

/** Resolved paths whose setting key is spelled otherwise (prefixes end in a dot). */
const KEY_OF: readonly (readonly [string, string])[] = [
  ['budgetOverrideTokens', 'maxInputTokens'],
  ['catalog', 'endpointCatalog'],
  ['editor.commitMessageModel', 'commitMessage.model'],
  ['editor.inlineSuggestions.', 'inlineSuggestions.'],
  ['imageDescriptionModel', 'imageDescription.model'],
];

/** Settings shown as one value each (a list or a map the user writes as one JSON value). */
const WHOLE = new Set(['endpoints', 'models', 'editor.inlineSuggestions.languages']);

/** The `opencode.` key a resolved path is set by. */
export function settingKeyOf(path: string): string {
  for (const [from, to] of KEY_OF) {
    if (from.endsWith('.') ? path.startsWith(from) : path === from) return `opencode.${to}${path.slice(from.length)}`;
  }
  return `opencode.${path}`;
}

function shown(path: string, value: unknown): string {
  if (path === 'endpoints') {
    // The first entry is the default endpoint (opencode.preset / baseUrl, logged as baseUrl); the rest are the user's list.
    const list = Array.isArray(value) ? (value as { id: string }[]).slice(1) : [];
    return `[${list.map((e) => e.id).join(', ')}]`;
  }
  if (path === 'baseUrl' && typeof value === 'string') return redactUrl(value);
  if (value !== null && typeof value === 'object') {
    const json = JSON.stringify(value);
    return json.length > 200 ? `${json.slice(0, 199)}…` : json;
  }
  return String(value);
}

function flatten(value: object, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, v] of Object.entries(value)) {
    const path = `${prefix}${key}`;
    if (v && typeof v === 'object' && !WHOLE.has(path)) for (const [k, inner] of flatten(v, `${path}.`)) out.set(k, inner);
    else out.set(path, v);
  }
  return out;
}

export function settingsChanges(before: Settings, after: Settings): string[] {
  const old = flatten(before);
  const changes: string[] = [];
  for (const [path, value] of flatten(after)) {
    const was = old.get(path);
    if (WHOLE.has(path) ? JSON.stringify(was) === JSON.stringify(value) : Object.is(was, value)) continue;
    let before = shown(path, was);
    const now = shown(path, value);
    // Same ids, other details (a URL, a label): say that it changed.
    if (before === now) before = `${before} (changed)`;
    changes.push(`${settingKeyOf(path)} ${before} → ${now}`);
  }
  return changes;
}

/** One line, or undefined when nothing the extension uses changed. */
export function settingsChangeLine(before: Settings, after: Settings): string | undefined {
  const changes = settingsChanges(before, after);
  return changes.length ? `[settings] ${changes.join(', ')}` : undefined;
}
