/**
 * Compares package.json's `contributes.configuration` with what the resolver (core/config/settings.ts)
 * actually does, by probing the resolver as a black box: which keys it reads, what it falls back to on a
 * value of the wrong type (its default, named in the warning), the range it clamps to (named in the warning),
 * whether it rounds (integer) and which choices it accepts (enum). package.json stays the source users see;
 * this is the check that the two agree (docs/architecture.md, "Settings defined once").
 */
import { resolveSettings, type Settings } from '../../core/config/settings';

export interface SettingSchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object';
  default: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
}

export type SettingsSchema = Record<string, SettingSchema>;
export type Resolver = typeof resolveSettings;

const PREFIX = 'opencode.';
const WRONG_TYPE = { number: 'not a number', string: 42, boolean: 'not a boolean' } as const;

function run(resolver: Resolver, values: Record<string, unknown>): { settings: Settings; warnings: string[]; read: Set<string> } {
  const warnings: string[] = [];
  const read = new Set<string>();
  const settings = resolver((key) => {
    read.add(key);
    return values[key];
  }, (message) => warnings.push(message));
  return { settings, warnings, read };
}

/** The resolved value of a dotted key (`historyTrim.cutStepTokens` → settings.historyTrim.cutStepTokens). */
function resolvedValue(settings: Settings, key: string): unknown {
  let value: unknown = settings;
  for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
}

function warningFor(warnings: string[], key: string, pattern: string): RegExpMatchArray | undefined {
  const re = new RegExp(`^opencode\\.${key.replace(/\./g, '\\.')} .* ${pattern}$`);
  for (const warning of warnings) {
    const match = re.exec(warning);
    if (match) return match;
  }
  return undefined;
}

function numericMismatches(resolver: Resolver, key: string, schema: SettingSchema): string[] {
  const out: string[] = [];
  const wrong = warningFor(run(resolver, { [key]: WRONG_TYPE.number }).warnings, key, 'is not a number; using (.+)\\.');
  if (!wrong) return [`${key}: package.json says ${schema.type}, the resolver does not read it as a number`];
  if (Number(wrong[1]) !== schema.default) out.push(`${key}: default ${String(schema.default)} in package.json, ${wrong[1]} in the resolver`);
  const range = warningFor(run(resolver, { [key]: -1e15 }).warnings, key, 'is outside (.+)…(.+); using .+\\.');
  const min = range ? Number(range[1]) : undefined;
  const max = range ? Number(range[2]) : undefined;
  if (min !== schema.minimum) out.push(`${key}: minimum ${schema.minimum} in package.json, ${min} in the resolver`);
  if (max !== schema.maximum) out.push(`${key}: maximum ${schema.maximum} in package.json, ${max} in the resolver`);
  if (min === undefined || max === undefined) return out;
  // A value between min and the next integer: an integer setting rounds it, a number setting keeps it.
  const probe = max - min >= 1 ? min + 0.25 : min + (max - min) / 2;
  const kept = resolvedValue(run(resolver, { [key]: probe }).settings, key) === probe;
  const type = kept ? 'number' : 'integer';
  if (type !== schema.type) out.push(`${key}: ${schema.type} in package.json, ${type} in the resolver`);
  return out;
}

function booleanMismatches(resolver: Resolver, key: string, schema: SettingSchema): string[] {
  const wrong = warningFor(run(resolver, { [key]: WRONG_TYPE.boolean }).warnings, key, 'is not true or false; using (true|false)\\.');
  if (!wrong) return [`${key}: package.json says boolean, the resolver does not read it as one`];
  return wrong[1] === String(schema.default) ? [] : [`${key}: default ${String(schema.default)} in package.json, ${wrong[1]} in the resolver`];
}

function enumMismatches(resolver: Resolver, key: string, schema: SettingSchema): string[] {
  const wrong = warningFor(run(resolver, { [key]: 'not-one-of-the-choices' }).warnings, key, 'is not one of (.+); using (.+)\\.');
  if (!wrong) return [`${key}: package.json has an enum, the resolver accepts any value`];
  const out: string[] = [];
  const choices = wrong[1].split(', ');
  if (JSON.stringify(choices) !== JSON.stringify(schema.enum)) out.push(`${key}: enum ${schema.enum?.join('|')} in package.json, ${choices.join('|')} in the resolver`);
  if (wrong[2] !== schema.default) out.push(`${key}: default ${String(schema.default)} in package.json, ${wrong[2]} in the resolver`);
  return out;
}

/** A free-form string: a value of another type is refused, and no range or choice list applies. */
function stringMismatches(resolver: Resolver, key: string, schema: SettingSchema): string[] {
  if (schema.enum) return enumMismatches(resolver, key, schema);
  const refusesNumber = run(resolver, { [key]: WRONG_TYPE.string }).warnings.some((w) => w.startsWith(`${PREFIX}${key} `));
  const readsOtherType = run(resolver, { [key]: 'a string' }).warnings.some((w) => /is not (a number|true or false)/.test(w));
  return refusesNumber && !readsOtherType ? [] : [`${key}: package.json says string, the resolver reads another type`];
}

/** An object setting (opencode.models): a value of another type is refused with a warning naming it. */
function objectMismatches(resolver: Resolver, key: string): string[] {
  const refusesString = run(resolver, { [key]: 'a string' }).warnings.some((w) => w.startsWith(`${PREFIX}${key} `));
  return refusesString ? [] : [`${key}: package.json says object, the resolver accepts another type`];
}

/** Setting package.json's default must resolve exactly as leaving the setting unset, without a warning. */
function defaultMismatches(resolver: Resolver, key: string, schema: SettingSchema): string[] {
  const unset = run(resolver, {});
  const atDefault = run(resolver, { [key]: schema.default });
  if (atDefault.warnings.length > 0) return [`${key}: package.json's default ${JSON.stringify(schema.default)} makes the resolver warn: ${atDefault.warnings[0]}`];
  return JSON.stringify(atDefault.settings) === JSON.stringify(unset.settings) ? [] : [`${key}: package.json's default ${JSON.stringify(schema.default)} resolves differently from the resolver's own default`];
}

/** Every disagreement between the schema and the resolver, one sentence each; empty when they agree. */
export function settingsMismatches(schema: SettingsSchema, resolver: Resolver = resolveSettings): string[] {
  const out: string[] = [];
  const declared = new Set(Object.keys(schema).map((k) => k.slice(PREFIX.length)));
  const read = run(resolver, {}).read;
  for (const key of read) if (!declared.has(key)) out.push(`${key}: read by the resolver, missing from package.json`);
  for (const key of declared) if (!read.has(key)) out.push(`${key}: in package.json, never read by the resolver`);
  for (const [fullKey, setting] of Object.entries(schema)) {
    const key = fullKey.slice(PREFIX.length);
    if (!read.has(key)) continue;
    if (setting.type === 'integer' || setting.type === 'number') out.push(...numericMismatches(resolver, key, setting));
    else if (setting.type === 'boolean') out.push(...booleanMismatches(resolver, key, setting));
    else if (setting.type === 'object') out.push(...objectMismatches(resolver, key));
    else out.push(...stringMismatches(resolver, key, setting));
    out.push(...defaultMismatches(resolver, key, setting));
  }
  return out;
}
