/**
 * How much the native memory holds (docs/routes.md, "How much the native memory holds"): every layout one
 * conversation still sends stays remembered, however many there are, so the body keeps its prefix. Before, the
 * memory held 300 layouts: from the 301st answer on, each new one evicted the oldest layout still being sent and
 * every request changed near its start (a provider prefix-cache miss per request).
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { NATIVE_REPLAY_BOUNDS, NativeReplayMemory, type AssistantLayout, type NativeReplay } from '../core/answer/nativeReplay';
import { routeById } from '../core/routes/registry/registry';
import { SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage } from '../core/types';
import { engineFor, MemoryStore } from './support/engineHarness';
import { defaultSettings } from './support/trimHarness';
import { nativeSession, payload, type NativeRoute, type Turn } from './support/nativeSessions';
import { assertReached, runs } from './support/propertyRuns';
import { signedCallItem } from '../core/routes/gemini/geminiBody';
import { prepareRequest } from './support/prepareRequest';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

const LIMITS = { contextWindow: 1_000_000, maxOutputTokens: 8_000 };

/** The request of turn `t` (the history up to its t-th answer's result), prepared as the engine does. */
function prepared(route: NativeRoute, history: ChatMessage[], t: number, replay: NativeReplay, memo = new SizeMemo(), states = new ConversationStates()) {
  const messages = history.slice(0, 2 + 2 * t);
  return prepareRequest({ purpose: 'conversation', modelId: 'm', messages, tools: [] }, { settings: defaultSettings, limits: LIMITS, calibration: 1, memo, states, log: new MemoryLogger(), route: routeById(route), reasons: true, replay });
}

/** The memory as a replay that also notes which layouts a request sent (layoutFor answered with one). */
function spied(memory: NativeReplayMemory): { replay: NativeReplay; sent: Set<string> } {
  const sent = new Set<string>();
  const replay: NativeReplay = {
    layoutFor: (callId, route) => {
      const layout = memory.layoutFor(callId, route);
      if (layout) sent.add(callId);
      return layout;
    },
    layoutOf: (callId) => memory.layoutOf(callId),
  };
  return { replay, sent };
}

/**
 * Prepares the session turn by turn, remembering each answer after its request, and checks that no layout the
 * request sent was evicted by that. Returns the most characters of layouts one request sent.
 */
function sentStaysRemembered(route: NativeRoute, turns: readonly Turn[]): number {
  const { history, layouts } = nativeSession(route, turns);
  const memory = new NativeReplayMemory();
  const memo = new SizeMemo();
  const states = new ConversationStates();
  let mostSent = 0;
  for (let t = 0; t < layouts.length; t++) {
    const { replay, sent } = spied(memory);
    prepared(route, history, t, replay, memo, states);
    const sentChars = [...sent].reduce((sum, id) => sum + JSON.stringify(memory.layoutOf(id)).length, 0);
    mostSent = Math.max(mostSent, sentChars);
    memory.remember(layouts[t]);
    for (const id of sent) assert.ok(memory.layoutOf(id), `turn ${t}: ${id} was sent by the last request and is evicted (${sent.size} layouts, ${sentChars} chars sent)`);
  }
  return mostSent;
}

const keysOf = (memory: NativeReplayMemory): string[] => Object.keys(memory.toJSON());

describe('native memory: holds every layout a conversation still sends', () => {
  it('past 300 native turns kept, the body keeps its prefix on every request (the reviewer’s F3)', () => {
    const { history, layouts } = nativeSession('gemini', Array.from({ length: 305 }, () => ({ opaqueChars: 400, thinkingTokens: 10, resultTokens: 100 })));
    const memory = new NativeReplayMemory();
    let previous = '';
    for (let t = 0; t < layouts.length; t++) {
      const current = JSON.stringify(prepared('gemini', history, t, memory).body);
      // More than 90% of the previous body is still a prefix (compared at once; counted only to say by how much not).
      if (t > 0 && !current.startsWith(previous.slice(0, Math.floor(0.9 * previous.length) + 1))) {
        let c = 0;
        while (c < previous.length && previous[c] === current[c]) c++;
        assert.fail(`request ${t}: only ${c} of ${previous.length} chars still a prefix`);
      }
      previous = current;
      memory.remember(layouts[t]);
    }
  });

  it('random sessions within the trim’s budget: remembering the next answer never evicts a layout the last request sent', function () {
    // Its 8 runs take seconds each: on a loaded 2-core machine they pass mocha's 20 s (a budget, not a timing check).
    this.timeout(90_000);
    // Two kinds of session: many small signed turns (past the old 300), and few large payloads (up to the
    // per-layout cap) that fill the 1M-token window, so the trim cuts and the sent layouts weigh megabytes.
    const small = fc.record({ opaqueChars: fc.integer({ min: 0, max: 600 }), thinkingTokens: fc.integer({ min: 0, max: 40 }), resultTokens: fc.integer({ min: 5, max: 150 }) });
    const large = fc.record({ opaqueChars: fc.integer({ min: 20_000, max: 240_000 }), thinkingTokens: fc.integer({ min: 0, max: 2_000 }), resultTokens: fc.integer({ min: 5, max: 3_000 }) });
    const route = fc.constantFrom<NativeRoute>('responses', 'messages', 'gemini');
    let mostSent = 0;
    // A run takes seconds: the first failure is reported unshrunk (endOnFailure).
    for (const turns of [fc.array(small, { minLength: 290, maxLength: 330 }), fc.array(large, { minLength: 20, maxLength: 50 })]) {
      fc.assert(fc.property(route, turns, (r, steps) => void (mostSent = Math.max(mostSent, sentStaysRemembered(r, steps)))), { numRuns: runs(4), endOnFailure: true });
    }
    // The large sessions did send megabytes of layouts at once (the trim keeps them under ~4.3M at this window).
    assert.ok(mostSent < NATIVE_REPLAY_BOUNDS.maxChars, `${mostSent} chars of layouts sent at once`);
    assertReached(mostSent > 1_500_000, `at most ${mostSent} chars of layouts sent at once`);
  });

  it('holds at most 8M characters: the least recently sent or remembered layouts go first', () => {
    const big = (n: number): AssistantLayout => ({ route: 'messages', slots: [{ kind: 'native', item: { type: 'redacted_thinking', data: payload(250_000, n) } }, { kind: 'call', callId: `call_${n}` }] });
    const memory = new NativeReplayMemory();
    for (let n = 0; n < 40; n++) assert.ok(memory.remember(big(n)));
    const kept = keysOf(memory);
    assert.ok(memory.chars <= NATIVE_REPLAY_BOUNDS.maxChars && memory.chars > NATIVE_REPLAY_BOUNDS.maxChars - 260_000, `${memory.chars} chars kept`);
    assert.deepEqual(kept, Array.from({ length: kept.length }, (_, i) => `call_${40 - kept.length + i}`), 'the newest, oldest first');
    assert.ok(memory.layoutFor(kept[0], 'messages'), 'the oldest kept layout is sent again');
    memory.remember(big(40));
    assert.ok(memory.layoutOf(kept[0]), 'so it is kept');
    assert.equal(memory.layoutOf(kept[1]), undefined, 'and the next least recently used goes instead');
    assert.equal(memory.remember({ route: 'messages', slots: [{ kind: 'native', item: { type: 'redacted_thinking', data: 'x'.repeat(NATIVE_REPLAY_BOUNDS.maxLayoutChars) } }, { kind: 'call', callId: 'huge' }] }), false, 'over the per-layout cap');
  });

  it('after a restart (saved, loaded by a new engine) the memory evicts in the same order as the one saved', () => {
    // A layout of about `chars` characters; cheap filler, only its size matters to the memory.
    const layoutOf = (n: number, chars: number): AssistantLayout => ({ route: 'responses', slots: [{ kind: 'native', item: { type: 'reasoning', encrypted_content: 'x'.repeat(chars) } }, { kind: 'call', callId: `call_${n}` }] });
    const op = fc.oneof(fc.record({ remember: fc.integer({ min: 100, max: NATIVE_REPLAY_BOUNDS.maxLayoutChars - 200 }) }), fc.record({ send: fc.nat() }));
    fc.assert(
      fc.property(fc.array(op, { minLength: 30, maxLength: 90 }), fc.array(op, { minLength: 1, maxLength: 60 }), (before, after) => {
        const store = new MemoryStore();
        let next = 0;
        const apply = (memories: NativeReplayMemory[], o: { remember: number } | { send: number }, n: number): void => {
          for (const memory of memories) {
            if ('remember' in o) memory.remember(layoutOf(n, o.remember));
            else memory.layoutFor(`call_${o.send % Math.max(1, n)}`, 'responses');
          }
        };
        const original = new NativeReplayMemory();
        for (const o of before) apply([original], o, 'remember' in o ? next++ : next);
        store.update('opencode.nativeReplay', original.toJSON()); // what the engine saves after each remembered answer
        const restored = engineFor('http://127.0.0.1:9', {}, store).engine.nativeReplay;
        assert.deepEqual(keysOf(restored), keysOf(original));
        assert.equal(restored.chars, original.chars);
        assert.ok(original.chars <= NATIVE_REPLAY_BOUNDS.maxChars);
        for (const o of after) {
          apply([original, restored], o, 'remember' in o ? next++ : next);
          assert.deepEqual(keysOf(restored), keysOf(original));
        }
      }),
      { numRuns: runs(15) },
    );
  });

  it('a saved record over the entry bound loads its newest entries, in order', () => {
    const tiny = (n: number): AssistantLayout => ({ route: 'gemini', slots: [{ kind: 'native', item: signedCallItem(`c${n}`, { thoughtSignature: 's' }) }, { kind: 'call', callId: `c${n}` }] });
    const over = NATIVE_REPLAY_BOUNDS.maxEntries + 5;
    const saved = Object.fromEntries(Array.from({ length: over }, (_, n) => [`c${n}`, tiny(n)]));
    const store = new MemoryStore();
    store.update('opencode.nativeReplay', saved);
    const restored = engineFor('http://127.0.0.1:9', {}, store).engine.nativeReplay;
    assert.equal(restored.size, NATIVE_REPLAY_BOUNDS.maxEntries);
    assert.deepEqual(keysOf(restored), Object.keys(saved).slice(5));
  });
});
