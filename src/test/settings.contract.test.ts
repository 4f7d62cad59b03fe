/**
 * Settings are defined twice — package.json (what the Settings UI shows) and the resolver (what the code
 * uses) — and this test is what keeps them one definition: it fails on any difference in keys, type,
 * default, minimum, maximum or enum. The mutation property proves it can fail.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { settingsMismatches, type SettingSchema, type SettingsSchema } from './support/settingsContract';
import { runs } from './support/propertyRuns';

const packageJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: SettingsSchema } };
};
const schema = packageJson.contributes.configuration.properties;

type Mutation = (s: SettingSchema) => SettingSchema | undefined;

/** Each returns a changed copy of one setting, or undefined when it does not apply to that setting. */
const MUTATIONS: Record<string, Mutation> = {
  default: (s) => {
    if (typeof s.default === 'number') return { ...s, default: s.default === s.minimum ? s.default + 1 : s.default - 1 };
    if (typeof s.default === 'boolean') return { ...s, default: !s.default };
    if (s.enum) return { ...s, default: s.enum.find((c) => c !== s.default) };
    return { ...s, default: 'http://127.0.0.1:9/v1' };
  },
  minimum: (s) => (s.minimum === undefined ? undefined : { ...s, minimum: s.minimum + 1 }),
  maximum: (s) => (s.maximum === undefined ? undefined : { ...s, maximum: s.maximum - 1 }),
  type: (s) => (s.type === 'integer' ? { ...s, type: 'number' } : s.type === 'number' ? { ...s, type: 'integer' } : s.type === 'boolean' ? { ...s, type: 'string' } : undefined),
  enumDrop: (s) => (s.enum ? { ...s, enum: s.enum.slice(0, -1) } : undefined),
  enumAdd: (s) => (s.enum ? { ...s, enum: [...s.enum, 'extra'] } : undefined),
};

describe('settings: package.json and the resolver agree', () => {
  it('every key, type, default, minimum, maximum and enum of contributes.configuration matches the resolver', () => {
    assert.deepStrictEqual(settingsMismatches(schema), []);
  });

  it('fails, naming the setting, on any single change to a copy of package.json', () => {
    const keys = Object.keys(schema);
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.constantFrom(...Object.keys(MUTATIONS)), (key, name) => {
        const mutated = MUTATIONS[name](schema[key]);
        fc.pre(mutated !== undefined);
        const found = settingsMismatches({ ...schema, [key]: mutated as SettingSchema });
        const short = key.slice('opencode.'.length);
        assert.ok(found.length > 0 && found.every((m) => m.startsWith(`${short}:`)), `${name} of ${key}: ${JSON.stringify(found)}`);
      }),
      { numRuns: runs(200) },
    );
  });

  it('fails when package.json loses a setting the resolver reads, or declares one it never reads', () => {
    const { ['opencode.maxRetries']: _dropped, ...missing } = schema;
    assert.deepStrictEqual(settingsMismatches(missing), ['maxRetries: read by the resolver, missing from package.json']);
    const extra = { ...schema, 'opencode.madeUp': { type: 'boolean', default: false } as SettingSchema };
    assert.deepStrictEqual(settingsMismatches(extra), ['madeUp: in package.json, never read by the resolver']);
  });
});
