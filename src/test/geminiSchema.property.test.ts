/** Gemini's schema subset: random JSON Schemas reduce to only what Gemini accepts, and no existing required property is lost. */
import * as assert from 'assert';
import fc from 'fast-check';
import { GEMINI_SCHEMA_KEYS, GEMINI_TYPES, geminiParameters, reduceSchema } from '../core/routes/gemini/geminiSchema';
import { runs } from './support/propertyRuns';
import { isRecord } from '../core/util/jsonFields';

type Json = Record<string, unknown>;

const KEYWORDS = ['additionalProperties', '$schema', 'examples', 'default', 'const', 'format', 'pattern', 'minimum', 'exclusiveMinimum', 'title', 'description', 'nullable', 'uniqueItems', '$comment'];
const leafArb: fc.Arbitrary<Json> = fc.record(
  {
    type: fc.oneof(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'array', 'object', 'STRING', 'date'), fc.array(fc.constantFrom('string', 'null', 'integer'), { minLength: 1, maxLength: 3 })),
    enum: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null), fc.boolean()), { maxLength: 4 }),
    extra: fc.dictionary(fc.constantFrom(...KEYWORDS), fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant({})), { maxKeys: 3 }),
  },
  { requiredKeys: [] },
).map(({ type, enum: values, extra }) => ({ ...extra, ...(type !== undefined ? { type } : {}), ...(values !== undefined ? { enum: values } : {}) }));

const { schema: schemaArb } = fc.letrec<{ schema: Json }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.record({ properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('schema'), { maxKeys: 4 }), required: fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 4 }), type: fc.constantFrom('object', undefined) }, { requiredKeys: ['properties'] }),
    fc.record({ type: fc.constant('array'), items: tie('schema') }, { requiredKeys: ['type'] }),
    fc.record({ anyOf: fc.array(tie('schema'), { maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(fc.oneof(tie('schema'), fc.constant({ type: 'null' })), { maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { maxLength: 3 }) }),
    fc.constant({ $ref: '#/$defs/Thing' }),
    fc.constant({ $ref: 'https://elsewhere/schema.json' }),
  ),
}));
const rootArb = fc.tuple(schemaArb, schemaArb).map(([schema, thing]): Json => ({ ...schema, $defs: { Thing: thing } }));

/** Every node only uses accepted keywords, string enums, known lowercase types, existing required names, items on arrays. */
function assertSubset(node: unknown, path: string): void {
  assert.ok(isRecord(node), `${path} is an object`);
  for (const key of Object.keys(node)) assert.ok(GEMINI_SCHEMA_KEYS.has(key), `${path}.${key} is not in Gemini's subset`);
  if ('type' in node) assert.ok(GEMINI_TYPES.has(node.type as string), `${path}.type ${String(node.type)}`);
  if ('enum' in node) {
    assert.strictEqual(node.type, 'string', `${path}: enums only on strings`);
    assert.ok(Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every((v) => typeof v === 'string'), `${path}.enum`);
  }
  if (node.type === 'array') assert.ok(isRecord(node.items), `${path}: an array has items`);
  if ('required' in node) {
    assert.ok(isRecord(node.properties) && Array.isArray(node.required) && node.required.length > 0);
    for (const name of node.required as string[]) assert.ok(Object.hasOwn(node.properties, name), `${path}.required ${name} exists`);
  }
  if ('format' in node) assert.ok(['enum', 'date-time', 'float', 'double', 'int32', 'int64'].includes(node.format as string));
  if (isRecord(node.properties)) for (const [name, child] of Object.entries(node.properties)) assertSubset(child, `${path}.properties.${name}`);
  if (isRecord(node.items)) assertSubset(node.items, `${path}.items`);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach((child, i) => assertSubset(child, `${path}.anyOf[${i}]`));
}

describe('Gemini schema subset (fuzz)', () => {
  it('random JSON Schemas → only the accepted subset, and every required property that exists is still there and required', () => {
    fc.assert(
      fc.property(rootArb, (root) => {
        const reduced = reduceSchema(root, root, 0);
        assertSubset(reduced, '$');
        if (isRecord(root.properties) && Array.isArray(root.required) && !('allOf' in root)) {
          for (const name of root.required) {
            if (typeof name !== 'string' || !Object.hasOwn(root.properties, name)) continue;
            assert.ok(isRecord(reduced.properties) && Object.hasOwn(reduced.properties, name), `required ${name} kept`);
            assert.ok((reduced.required as string[]).includes(name), `${name} still required`);
          }
        }
        assert.deepStrictEqual(reduceSchema(root, root, 0), reduced, 'deterministic');
      }),
      { numRuns: runs(400) },
    );
  });

  it('the cases OpenCode and Gemini users hit: integer enums, dangling required, bare arrays, nullable unions, refs, allOf', () => {
    const root = {
      type: 'object',
      additionalProperties: false,
      $defs: { Mode: { type: 'integer', enum: [0, 1] } },
      properties: {
        mode: { $ref: '#/$defs/Mode' },
        list: { type: 'array' },
        maybe: { type: ['string', 'null'], format: 'uri' },
        either: { oneOf: [{ type: 'string' }, { type: 'null' }] },
        both: { allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } } }] },
      },
      required: ['mode', 'ghost'],
    };
    assert.deepStrictEqual(geminiParameters(root), {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['0', '1'] },
        list: { type: 'array', items: {} },
        maybe: { type: 'string', nullable: true },
        either: { type: 'string', nullable: true },
        both: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] },
      },
      required: ['mode'],
    });
    assert.strictEqual(geminiParameters({ type: 'object', properties: {} }), undefined);
    const cyclic = { $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } }, $ref: '#/$defs/Node' };
    assertSubset(reduceSchema(cyclic, cyclic, 0), '$');
  });
});
