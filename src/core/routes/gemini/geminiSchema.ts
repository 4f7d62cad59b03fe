import { isRecord } from '../../util/jsonFields';
/**
 * A tool's JSON Schema → the OpenAPI 3.0 subset Gemini's `functionDeclarations[].parameters` accepts
 * (docs/routes.md "Gemini"): local `$ref`s inlined, `oneOf` → `anyOf`, `allOf` merged, `const` and every enum
 * as string enums (Gemini takes enums on strings only, so an integer enum becomes a string one), a `null`
 * member of a type list or `anyOf` → `nullable`, `required` kept only for properties that exist, bare arrays
 * given `items`, formats Gemini refuses and every other keyword dropped. Pure and deterministic.
 */

type Schema = Record<string, unknown>;

export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type', 'format', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'anyOf',
  'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties', 'pattern', 'title',
]);
export const GEMINI_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
/** Gemini answers 400 for other formats ("only 'enum' and 'date-time' are supported for STRING type"). */
const FORMATS: Record<string, readonly string[]> = { string: ['enum', 'date-time'], number: ['float', 'double'], integer: ['int32', 'int64'] };
const NUMERIC = ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'];
/** Deeper schemas (and `$ref` cycles) are cut to "any value": tool schemas are never legitimately this deep. */
const MAX_DEPTH = 12;

/** The root: undefined when the tool takes no parameters (Gemini rejects an OBJECT without properties). */
export function geminiParameters(schema: unknown): Schema | undefined {
  const reduced = reduceSchema(schema, isRecord(schema) ? schema : {}, 0);
  if (reduced.type === 'object' && !isRecord(reduced.properties)) return undefined;
  return reduced;
}

export function reduceSchema(schema: unknown, root: Schema, depth: number): Schema {
  if (!isRecord(schema) || depth > MAX_DEPTH) return {};
  const source = merged(resolveRef(schema, root), root, depth);
  const out: Schema = {};
  let nullable = source.nullable === true;
  const typeList = Array.isArray(source.type) ? source.type.filter((t): t is string => typeof t === 'string') : typeof source.type === 'string' ? [source.type] : [];
  if (typeList.includes('null')) nullable = true;
  let type = typeList.find((t) => GEMINI_TYPES.has(t));
  if (!type && isRecord(source.properties)) type = 'object';
  const enumValues = enumOf(source);
  if (enumValues) type = 'string';
  if (type) out.type = type;
  if (typeof source.format === 'string' && type && FORMATS[type]?.includes(source.format)) out.format = source.format;
  for (const key of ['description', 'title', 'pattern']) if (typeof source[key] === 'string') out[key] = source[key];
  if (type !== 'string' || !enumValues) for (const key of NUMERIC) if (typeof source[key] === 'number' && Number.isFinite(source[key])) out[key] = source[key];
  if (enumValues) out.enum = enumValues;
  const variants = anyOfVariants(source, root, depth);
  if (variants.nullable) nullable = true;
  if (variants.list.length === 1 && !type) Object.assign(out, variants.list[0]);
  else if (variants.list.length > 0) out.anyOf = variants.list;
  if (type === 'object' || (!type && isRecord(source.properties))) objectFields(source, root, depth, out);
  if (type === 'array') out.items = isRecord(source.items) ? reduceSchema(source.items, root, depth + 1) : {};
  if (nullable) out.nullable = true;
  return out;
}

function objectFields(source: Schema, root: Schema, depth: number, out: Schema): void {
  if (!isRecord(source.properties)) return;
  const properties: Schema = {};
  for (const [name, value] of Object.entries(source.properties)) properties[name] = reduceSchema(value, root, depth + 1);
  if (Object.keys(properties).length === 0) return;
  out.properties = properties;
  const required = Array.isArray(source.required) ? [...new Set(source.required.filter((r): r is string => typeof r === 'string' && Object.hasOwn(properties, r)))] : [];
  if (required.length > 0) out.required = required;
}

function enumOf(source: Schema): string[] | undefined {
  if ('const' in source && source.const !== undefined) return [stringValue(source.const)];
  if (!Array.isArray(source.enum)) return undefined;
  const values = [...new Set(source.enum.filter((v) => v !== null).map(stringValue))];
  return values.length > 0 ? values : undefined;
}

function stringValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `anyOf` / `oneOf` members, reduced; a `{type:"null"}` member becomes `nullable` instead. */
function anyOfVariants(source: Schema, root: Schema, depth: number): { list: Schema[]; nullable: boolean } {
  const members = [...(Array.isArray(source.anyOf) ? source.anyOf : []), ...(Array.isArray(source.oneOf) ? source.oneOf : [])];
  let nullable = false;
  const list: Schema[] = [];
  for (const member of members) {
    if (isRecord(member) && member.type === 'null') nullable = true;
    else list.push(reduceSchema(member, root, depth + 1));
  }
  return { list, nullable };
}

/** `#/$defs/X` and `#/definitions/X` (the only refs a tool schema can resolve on its own); anything else is dropped. */
function resolveRef(schema: Schema, root: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(schema.$ref);
  const defs = match ? root[match[1]] : undefined;
  const target = match && isRecord(defs) ? defs[decodeURIComponent(match[2])] : undefined;
  const { $ref: _ref, ...rest } = schema;
  return isRecord(target) ? { ...target, ...rest } : rest;
}

/** `allOf` members folded into the schema: properties and required lists united, the first type kept. */
function merged(schema: Schema, root: Schema, depth: number): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...out } = schema as Schema & { allOf: unknown[] };
  const properties: Schema = isRecord(out.properties) ? { ...out.properties } : {};
  const required: unknown[] = Array.isArray(out.required) ? [...out.required] : [];
  for (const member of allOf) {
    if (!isRecord(member) || depth > MAX_DEPTH) continue;
    const part = merged(resolveRef(member, root), root, depth + 1);
    if (isRecord(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) required.push(...part.required);
    for (const [key, value] of Object.entries(part)) if (!(key in out) && key !== 'properties' && key !== 'required') out[key] = value;
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.length > 0) out.required = required;
  return out;
}
