/** The field readers for untrusted JSON (core/util/jsonFields.ts): any JSON value in, the typed field or the neutral value out, never a throw. */
import * as assert from 'assert';
import fc from 'fast-check';
import { filledString, isNonNegative, numberField, recordField, stringField } from '../core/util/jsonFields';

const anyValue = fc.oneof(fc.jsonValue(), fc.constantFrom(undefined, Number.NaN, Infinity, -Infinity, -0, -1e-9));

describe('jsonFields: one field out of untrusted JSON', () => {
  it('property: each reader gives back the value exactly when it has the type asked for, else its neutral value', () => {
    fc.assert(
      fc.property(anyValue, fc.integer(), (value, fallback) => {
        assert.strictEqual(stringField(value), typeof value === 'string' ? value : '');
        assert.strictEqual(filledString(value), typeof value === 'string' && value !== '' ? value : undefined);
        assert.strictEqual(numberField(value, fallback), typeof value === 'number' ? value : fallback);
        const record = recordField(value);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) assert.strictEqual(record, value);
        else assert.deepStrictEqual(record, {});
        assert.strictEqual(isNonNegative(value), typeof value === 'number' && value >= 0 && value !== Infinity);
      }),
    );
  });

  it('the edges: an empty string is no id, NaN and infinities are no count, -0 is zero', () => {
    assert.strictEqual(filledString(''), undefined);
    assert.strictEqual(stringField(5), '');
    assert.deepStrictEqual(recordField([1, 2]), {});
    assert.strictEqual(isNonNegative(Number.NaN), false);
    assert.strictEqual(isNonNegative(Infinity), false);
    assert.strictEqual(isNonNegative(-0), true);
    assert.strictEqual(isNonNegative('3'), false);
  });
});
