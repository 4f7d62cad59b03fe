/**
 * The saved-state writer (core/state/stateWriter.ts, chunkedMap.ts): random sequences of answers (layouts
 * remembered, evicting the oldest), sends (recency refreshed), flushes, crashes in the middle of a write and
 * reloads never lose a flushed update, never bring back a value older than the last flush, and never exceed the
 * memory's bounds; one answer writes only what it changed; the debounce writes each key once.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { NATIVE_REPLAY_BOUNDS, NativeReplayMemory, type AssistantLayout } from '../core/answer/nativeReplay';
import { chunkKey, indexKey, loadChunked, MAX_CHUNK_WEIGHT } from '../core/state/chunkedMap';
import { PersistedStore, type KeyValueStore } from '../core/state/persisted';
import { validLayout } from '../core/request/savedRecords';
import { StateWriter, type WriterTimers } from '../core/state/stateWriter';
import { runs } from './support/propertyRuns';
import { MemoryLogger } from './support/memoryLogger';

const KEY = 'opencode.nativeReplay';

/** A store that can die: after `budget` more updates, every later one is lost (the process is gone). */
class CrashingStore implements KeyValueStore {
  readonly values = new Map<string, string>();
  budget = Infinity;
  get(key: string): unknown {
    const text = this.values.get(key);
    return text === undefined ? undefined : JSON.parse(text);
  }
  update(key: string, value: unknown): void {
    if (this.budget <= 0) return;
    this.budget--;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.stringify(value));
  }
  get chars(): number {
    let total = 0;
    for (const text of this.values.values()) total += text.length;
    return total;
  }
}

const manualTimers: WriterTimers = { setTimeout: () => 1, clearTimeout: () => undefined };

function open(store: CrashingStore) {
  const persisted = new PersistedStore(store, new MemoryLogger());
  const writer = new StateWriter(persisted, 60_000, manualTimers);
  const memory = new NativeReplayMemory();
  writer.chunkedChanged(loadChunked(persisted, KEY, memory, validLayout, NATIVE_REPLAY_BOUNDS.maxEntries), memory);
  return { writer, memory };
}

const layoutOf = (n: number, chars: number): AssistantLayout => ({ route: 'responses', slots: [{ kind: 'native', item: { type: 'reasoning', encrypted_content: `${n}`.padEnd(chars, 'x') } }, { kind: 'call', callId: `call_${n}` }] });
const snapshot = (memory: NativeReplayMemory): Map<string, string> => new Map(Object.entries(memory.toJSON()).map(([k, v]) => [k, JSON.stringify(v)]));

type Op = { remember: number } | { send: number } | { flush: true } | { crash: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ remember: fc.integer({ min: 100, max: NATIVE_REPLAY_BOUNDS.maxLayoutChars - 200 }) }) },
  { weight: 3, arbitrary: fc.record({ send: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ flush: true as const }) },
  { weight: 1, arbitrary: fc.record({ crash: fc.nat({ max: 6 }) }) },
);

describe('saved state: one debounced writer, large memories in chunks', function () {
  this.timeout(60_000);
  it('property: random answers, sends, flushes and crashes mid-write: nothing flushed is lost, nothing stale returns, bounds hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 80 }), async (ops) => {
        const store = new CrashingStore();
        let { writer, memory } = open(store);
        let flushed = new Map<string, string>();
        let next = 0;
        for (const o of ops) {
          if ('remember' in o) memory.remember(layoutOf(next++, o.remember));
          else if ('send' in o) memory.layoutFor(`call_${o.send % Math.max(1, next)}`, 'responses');
          else if ('flush' in o) {
            await writer.flush();
            flushed = snapshot(memory);
            assert.ok(store.chars <= NATIVE_REPLAY_BOUNDS.maxChars + 4_096, `the store holds ${store.chars} characters`);
          } else {
            const live = snapshot(memory);
            store.budget = o.crash;
            await writer.flush();
            store.budget = Infinity;
            ({ writer, memory } = open(store));
            const reloaded = snapshot(memory);
            // Every entry flushed and still live at the crash survives, with its value.
            for (const [k, value] of flushed) if (live.get(k) === value) assert.strictEqual(reloaded.get(k), value, `${k} was flushed`);
            // Nothing older than the last flush comes back; nothing that never existed appears.
            for (const [k, value] of reloaded) assert.ok(value === flushed.get(k) || value === live.get(k), `${k} is stale`);
            assert.ok(memory.chars <= NATIVE_REPLAY_BOUNDS.maxChars && memory.size <= NATIVE_REPLAY_BOUNDS.maxEntries);
            flushed = new Map([...reloaded].filter(([k, v]) => flushed.get(k) === v || live.get(k) === v));
            // What the reload then holds is what a complete flush makes durable again.
            await writer.flush();
            flushed = snapshot(memory);
          }
        }
        await writer.flush();
        const last = snapshot(memory);
        const reopened = snapshot(open(store).memory);
        assert.deepStrictEqual([...reopened], [...last], 'a complete flush is exactly what a reload reads, in order');
      }),
      { numRuns: runs(80) },
    );
  });

  it('one answer on a full memory writes the open chunk and what it evicted from, not the whole memory', async () => {
    const store = new CrashingStore();
    const { writer, memory } = open(store);
    let n = 0;
    while (memory.chars < NATIVE_REPLAY_BOUNDS.maxChars - 60_000) memory.remember(layoutOf(n++, 60_000));
    await writer.flush();
    const written: string[] = [];
    const update = store.update.bind(store);
    store.update = (key, value) => (written.push(`${key}:${JSON.stringify(value ?? null).length}`), update(key, value));
    for (let i = 0; i < 5; i++) memory.remember(layoutOf(n++, 60_000));
    await writer.flush();
    const chars = written.reduce((sum, w) => sum + Number(w.split(':').at(-1)), 0);
    assert.ok(written.length <= 6, written.join(', '));
    assert.ok(chars <= 3 * MAX_CHUNK_WEIGHT, `${chars} characters written for five answers (the memory holds ${memory.chars})`);
    assert.ok(store.values.has(indexKey(KEY)) && store.values.has(chunkKey(KEY, 0)) === false, 'the oldest chunk, emptied by eviction, is gone');
  });

  it('the debounce: many changes, one write per key, only after the delay; a flush writes at once', async () => {
    const store = new CrashingStore();
    const fired: (() => void)[] = [];
    const timers: WriterTimers = { setTimeout: (callback) => fired.push(callback), clearTimeout: () => undefined };
    const writer = new StateWriter(new PersistedStore(store), 2_000, timers);
    let serialized = 0;
    for (let i = 0; i < 50; i++) writer.changed('opencode.trimStates', () => (serialized++, { answer: i }));
    writer.changed('opencode.calibrations', () => ({ m: 1.1 }));
    assert.strictEqual(fired.length, 1, 'one timer for all the changes');
    assert.strictEqual(store.values.size, 0, 'nothing written on the request path');
    fired[0]();
    await Promise.resolve();
    assert.strictEqual(serialized, 1, 'serialized once, when written');
    assert.deepStrictEqual(store.get('opencode.trimStates'), { answer: 49 });
    writer.changed('opencode.learnedLimits', () => ({ m: { window: 9_000 } }));
    await writer.flush();
    assert.deepStrictEqual(store.get('opencode.learnedLimits'), { m: { window: 9_000 } });
  });

  it('an older version\'s whole map loads, is written in chunks by the first flush, and its bare key is removed', async () => {
    const store = new CrashingStore();
    const legacy = new NativeReplayMemory();
    for (let n = 0; n < 20; n++) legacy.remember(layoutOf(n, 50_000));
    store.update(KEY, legacy.toJSON());
    const { writer, memory } = open(store);
    assert.deepStrictEqual([...snapshot(memory)], [...snapshot(legacy)]);
    await writer.flush();
    assert.strictEqual(store.values.has(KEY), false);
    assert.deepStrictEqual([...snapshot(open(store).memory)], [...snapshot(legacy)]);
  });

  it('hostile saved state: a bad index or bad chunk entries are dropped with a WARN, never thrown', () => {
    const store = new CrashingStore();
    store.update(indexKey(KEY), { v: 1, chunks: Array.from({ length: 10_000 }, (_, i) => i) });
    const { memory } = open(store);
    assert.strictEqual(memory.size, 0);
    store.update(indexKey(KEY), { v: 1, chunks: [3] });
    store.update(chunkKey(KEY, 3), { call_1: { route: 'nowhere', slots: 'x' }, call_2: layoutOf(2, 500) });
    assert.deepStrictEqual([...snapshot(open(store).memory).keys()], ['call_2']);
  });
});
