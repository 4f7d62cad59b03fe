import { strict as assert } from 'assert';
import fc from 'fast-check';
import { BoundedMap, type WeightBound } from '../core/util/boundedMap';

const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 9 }), value: fc.integer({ min: -30, max: 30 }) }),
  fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ kind: fc.constant('getOrCreate' as const), key: fc.integer({ min: 0, max: 9 }), value: fc.integer({ min: -30, max: 30 }) }),
  fc.record({ kind: fc.constant('clear' as const) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
type Entry = [number, number];

/**
 * Runs random operations on the map and on a model, a plain list least recently used first: a write appends,
 * then the oldest entries go until the count and (when weighed) the total weight fit — the longest tail that
 * fits. After every operation the two agree on order, values, size and weight.
 */
function checkAgainstModel(capacity: number, ops: Op[], bound?: WeightBound<number, number>): void {
  const map = new BoundedMap<number, number>(capacity, bound);
  const weightOf = ([k, v]: Entry): number => bound?.weigh(v, k) ?? 0;
  const total = (list: Entry[]): number => list.reduce((sum, e) => sum + weightOf(e), 0);
  const fit = (list: Entry[]): Entry[] => {
    let kept = list.slice(-capacity);
    while (kept.length > 0 && bound && total(kept) > bound.maxWeight) kept = kept.slice(1);
    return kept;
  };
  let model: Entry[] = [];
  const others = (key: number): Entry[] => model.filter(([k]) => k !== key);
  // An entry that alone is over the weight bound is refused, and evicts nothing.
  const touch = (entry: Entry): Entry[] => (bound && weightOf(entry) > bound.maxWeight ? others(entry[0]) : fit([...others(entry[0]), entry]));
  for (const o of ops) {
    if (o.kind === 'set') {
      map.set(o.key, o.value);
      model = touch([o.key, o.value]);
    } else if (o.kind === 'get') {
      const found = model.find(([k]) => k === o.key);
      assert.equal(map.get(o.key), found?.[1]);
      if (found) model = touch(found);
    } else if (o.kind === 'getOrCreate') {
      const found = model.find(([k]) => k === o.key) ?? ([o.key, o.value] as Entry);
      assert.equal(map.getOrCreate(o.key, () => o.value), found[1]);
      model = touch(found);
    } else if (o.kind === 'clear') {
      map.clear();
      model = [];
    } else {
      assert.equal(map.delete(o.key), model.some(([k]) => k === o.key));
      model = model.filter(([k]) => k !== o.key);
    }
    assert.ok(map.size <= capacity);
    assert.deepEqual([...map.entriesInOrder()], model);
    assert.equal(map.weight, total(model));
    if (bound) assert.ok(map.weight <= bound.maxWeight);
  }
}

describe('BoundedMap', () => {
  it('behaves like an LRU list model under random operations', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => checkAgainstModel(capacity, ops)));
  });

  it('with a weight bound, keeps the longest least-recently-used tail that fits both bounds (model-based)', () => {
    // Weights from the value (|value|, some 0) and from the key, so a re-set can make an entry lighter or heavier.
    const weighers = [(v: number) => Math.abs(v), (v: number, k: number) => (v % 2 === 0 ? 0 : k + 0.5)];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 60 }), fc.constantFrom(...weighers), fc.array(op, { maxLength: 80 }), (capacity, maxWeight, weigh, ops) =>
        checkAgainstModel(capacity, ops, { weigh, maxWeight }),
      ),
    );
  });

  it('refuses a capacity below one, a weight bound not above zero and a weight that is not a finite number ≥ 0', () => {
    assert.throws(() => new BoundedMap(0), /at least 1/);
    assert.throws(() => new BoundedMap(Number.NaN), /at least 1/);
    assert.throws(() => new BoundedMap(3, { weigh: () => 1, maxWeight: 0 }), /maxWeight/);
    for (const bad of [-1, Number.NaN, Infinity]) {
      const map = new BoundedMap<string, number>(3, { weigh: (v) => v, maxWeight: 10 }).set('kept', 2);
      assert.throws(() => map.set('bad', bad), /weight must be/);
      assert.deepEqual([...map.entriesInOrder()], [['kept', 2]], 'a refused weight leaves the map as it was');
      assert.equal(map.weight, 2);
    }
  });
});
