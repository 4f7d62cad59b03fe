/**
 * Issue 32: a `[settings]` line names real keys only. For every setting package.json contributes, a change of that
 * one setting is logged under keys the user can set (never a resolved object's path such as
 * `opencode.editor.inlineSuggestions.model` or `opencode.editor.commitMessageModel`).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { resolveSettings } from '../core/config/settings';
import { settingsChanges } from '../core/config/settingsDiff';

interface Declared {
  type: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Declared> } } };
const declared = manifest.contributes.configuration.properties;

/** Another valid value than the default, by the declared type. */
function otherValue(key: string, d: Declared): unknown {
  if (key === 'opencode.baseUrl') return 'http://127.0.0.1:4096/v1';
  if (key === 'opencode.endpoints') return ['zen', { id: 'work', baseUrl: 'https://gateway.example/v1', label: 'Work' }];
  if (key === 'opencode.models') return { 'my-model': { api: 'messages', contextWindow: 65_536 } };
  if (d.enum) return d.enum.find((v) => v !== d.default);
  if (d.type === 'boolean') return !d.default;
  if (d.type === 'integer' || d.type === 'number') return Math.min(d.maximum ?? Infinity, Math.max(d.minimum ?? 0, Number(d.default ?? 0) + 1));
  if (d.type === 'array') return ['typescript'];
  if (d.type === 'string') return 'fake-large';
  throw new Error(`no other value for ${key}`);
}

describe('[settings] lines name real keys', () => {
  const none = resolveSettings(() => undefined, () => undefined);
  for (const [key, d] of Object.entries(declared)) {
    it(`a change of ${key} is logged under declared keys`, () => {
      const value = otherValue(key, d);
      const changed = resolveSettings((k) => (`opencode.${k}` === key ? value : undefined), () => undefined);
      const changes = settingsChanges(none, changed);
      assert.ok(changes.length > 0, `${key}: nothing logged`);
      for (const change of changes) {
        const named = change.split(' ')[0];
        assert.ok(named in declared, `${key}: "${change}" names ${named}, not a setting`);
      }
      // A setting is logged under its own key (the preset resolves into the base URL it stands for).
      if (key !== 'opencode.preset') assert.ok(changes.some((c) => c.startsWith(`${key} `)), `${key} not named in ${changes.join(' | ')}`);
    });
  }

  it('the list settings are one value each: endpoints by id, models as JSON', () => {
    const changed = resolveSettings((k) => (k === 'endpoints' ? ['zen'] : k === 'models' ? { m: { api: 'chat' } } : undefined), () => undefined);
    assert.deepStrictEqual(settingsChanges(none, changed), ['opencode.endpoints [] → [zen]', 'opencode.models {} → {"m":{"api":"chat"}}']);
  });
});
