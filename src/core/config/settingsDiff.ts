/**
 * The `[settings]` line written when the user changes an `opencode.*` setting: every value that changed,
 * old → new, as the extension resolved it (clamped values show what is actually used). The API key is
 * never a setting, so nothing secret can appear here.
 */
import type { Settings } from './settings';

function flatten(value: object, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, v] of Object.entries(value)) {
    if (v && typeof v === 'object') for (const [k, inner] of flatten(v, `${prefix}${key}.`)) out.set(k, inner);
    else out.set(`${prefix}${key}`, v);
  }
  return out;
}

export function settingsChanges(before: Settings, after: Settings): string[] {
  const old = flatten(before);
  const changes: string[] = [];
  for (const [key, value] of flatten(after)) {
    if (!Object.is(old.get(key), value)) changes.push(`opencode.${key} ${String(old.get(key))} → ${String(value)}`);
  }
  return changes;
}

/** One line, or undefined when nothing the extension uses changed. */
export function settingsChangeLine(before: Settings, after: Settings): string | undefined {
  const changes = settingsChanges(before, after);
  return changes.length ? `[settings] ${changes.join(', ')}` : undefined;
}
