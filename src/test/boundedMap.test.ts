import { strict as assert } from 'assert';
import fc from 'fast-check';
import { BoundedMap } from '../core/util/boundedMap';

describe('BoundedMap', () => {
  it('behaves like an LRU list model under random operations', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 9 }), value: fc.integer() }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant('getOrCreate' as const), key: fc.integer({ min: 0, max: 9 }), value: fc.integer() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => {
        const map = new BoundedMap<number, number>(capacity);
        let model: [number, number][] = []; // least recently used first
        for (const o of ops) {
          if (o.kind === 'set') {
            map.set(o.key, o.value);
            model = [...model.filter(([k]) => k !== o.key), [o.key, o.value] as [number, number]].slice(-capacity);
          } else if (o.kind === 'get') {
            const found = model.find(([k]) => k === o.key);
            assert.equal(map.get(o.key), found?.[1]);
            if (found) model = [...model.filter(([k]) => k !== o.key), found];
          } else if (o.kind === 'getOrCreate') {
            const found = model.find(([k]) => k === o.key) ?? ([o.key, o.value] as [number, number]);
            assert.equal(map.getOrCreate(o.key, () => o.value), found[1]);
            model = [...model.filter(([k]) => k !== o.key), found].slice(-capacity);
          } else {
            assert.equal(map.delete(o.key), model.some(([k]) => k === o.key));
            model = model.filter(([k]) => k !== o.key);
          }
          assert.ok(map.size <= capacity);
          assert.deepEqual([...map.entriesInOrder()], model);
        }
      }),
    );
  });

  it('refuses a capacity below one', () => {
    assert.throws(() => new BoundedMap(0), /at least 1/);
    assert.throws(() => new BoundedMap(Number.NaN), /at least 1/);
  });
});
