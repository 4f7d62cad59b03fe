/**
 * Image descriptions (core/images/imageDescriptions.ts, core/request/describeImages.ts), on random images and
 * sessions: the memo key is a function of the bytes alone; a session sends one describing request per distinct
 * image and the same text for it on every turn; what is persisted stays within its bounds and loads back through
 * its valibot check, hostile records dropped.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { IMAGE_DESCRIPTION_BOUNDS, ImageDescriptions, boundedDescription, imageKey } from '../core/images/imageDescriptions';
import { ImageDescriber, MAX_DESCRIBED_PER_REQUEST, type DescribeRun } from '../core/request/describeImages';
import { PersistedStore } from '../core/state/persisted';
import { validImageDescription } from '../core/request/savedRecords';
import type { ChatMessage, ChatPart } from '../core/types';
import { MemoryStore } from './support/engineHarness';
import { describingModel } from '../core/models/modelTable';
import { MemoryLogger } from './support/memoryLogger';
import { runs } from './support/propertyRuns';

const arbBytes = fc.uint8Array({ minLength: 1, maxLength: 64 });
const VISION = { modelId: 'vision-x', listed: {} };

/** A describing run that answers from the image's bytes, counting its calls. */
function countingRun(): { run: DescribeRun; calls: string[] } {
  const calls: string[] = [];
  const run: DescribeRun = async (request, _listed, onEvent) => {
    const image = request.messages[1].parts.find((p) => p.kind === 'image');
    if (image?.kind !== 'image') throw new Error('no image');
    calls.push(imageKey(image.data));
    onEvent({ kind: 'text', text: `bytes ${Buffer.from(image.data).toString('hex').slice(0, 16)}` });
    return {};
  };
  return { run, calls };
}

describe('image descriptions (memo key, once per image, bounded persistence)', () => {
  it('the memo key depends on the bytes alone: equal bytes, equal key; other bytes, another key', () => {
    fc.assert(fc.property(arbBytes, arbBytes, (a, b) => {
      assert.strictEqual(imageKey(a), imageKey(Uint8Array.from(a)));
      assert.match(imageKey(a), /^[0-9a-f]{64}$/);
      if (Buffer.from(a).equals(Buffer.from(b))) assert.strictEqual(imageKey(a), imageKey(b));
      else assert.notStrictEqual(imageKey(a), imageKey(b));
    }));
  });

  it('a random session sends one describing request per distinct image (at most 8 per request) and the same text on every turn', async () => {
    const arbTurns = fc.array(fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 4 }), { minLength: 1, maxLength: 10 });
    await fc.assert(fc.asyncProperty(fc.array(arbBytes, { minLength: 12, maxLength: 12 }), arbTurns, fc.boolean(), async (pool, turns, inTool) => {
      const { run, calls } = countingRun();
      const describer = new ImageDescriber(new ImageDescriptions(), run, new MemoryLogger(), () => undefined);
      const history: ChatMessage[] = [];
      let previous: string[] = [];
      const signal = new AbortController().signal;
      for (const picks of turns) {
        const images = picks.map((i) => ({ mimeType: 'image/png', data: pool[i] }));
        const parts: ChatPart[] = inTool ? [{ kind: 'toolResult', callId: `c${history.length}`, text: 'shot', images }] : [{ kind: 'text', text: 'look' }, ...images.map((im) => ({ kind: 'image' as const, ...im }))];
        history.push({ role: 'user', parts });
        const before = calls.length;
        const { request, tally } = await describer.describe({ purpose: 'conversation', modelId: 'text-only', messages: history, tools: [], imageInput: false, describeWith: VISION }, signal);
        assert.ok(calls.length - before <= MAX_DESCRIBED_PER_REQUEST);
        assert.strictEqual(tally.requests, calls.length - before);
        const sent = request.messages.map((m) => JSON.stringify(m));
        // Everything before the new turn is what the previous request sent.
        assert.deepStrictEqual(sent.slice(0, previous.length), previous);
        previous = sent;
        history.push({ role: 'assistant', parts: [{ kind: 'text', text: 'ok' }] });
        previous.push(JSON.stringify(history[history.length - 1]));
      }
      const distinct = new Set(turns.flat().map((i) => imageKey(pool[i])));
      assert.strictEqual(calls.length, distinct.size, 'one describing request per distinct image');
      assert.strictEqual(new Set(calls).size, calls.length, 'never the same image twice');
    }), { numRuns: runs(60) });
  });

  it('two requests with the same image at once share one describing request, counted once; a cancelled one is asked again later', async () => {
    const { run, calls } = countingRun();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: DescribeRun = async (request, listed, onEvent, signal) => {
      await gate;
      if (signal.aborted) throw new Error('cancelled');
      return run(request, listed, onEvent, signal);
    };
    const describer = new ImageDescriber(new ImageDescriptions(), slow, new MemoryLogger(), () => undefined);
    const image = Uint8Array.from([1, 2, 3]);
    const ask = (signal: AbortSignal) => describer.describe({ purpose: 'conversation', modelId: 'text-only', messages: [{ role: 'user', parts: [{ kind: 'image', mimeType: 'image/png', data: image }] }], tools: [], imageInput: false, describeWith: VISION }, signal);
    const both = [ask(new AbortController().signal), ask(new AbortController().signal)];
    release();
    const [a, b] = await Promise.all(both);
    assert.strictEqual(calls.length, 1);
    assert.strictEqual(a.tally.requests + b.tally.requests, 1);
    assert.deepStrictEqual(a.request.messages, b.request.messages);

    const other = new ImageDescriber(new ImageDescriptions(), slow, new MemoryLogger(), () => undefined);
    const stopped = new AbortController();
    stopped.abort();
    const cancelled = other.describe({ purpose: 'conversation', modelId: 'text-only', messages: [{ role: 'user', parts: [{ kind: 'image', mimeType: 'image/png', data: image }] }], tools: [], imageInput: false, describeWith: VISION }, stopped.signal);
    await assert.rejects(cancelled, (error: Error) => error.message === 'The request was cancelled.');
    const later = await other.describe({ purpose: 'conversation', modelId: 'text-only', messages: [{ role: 'user', parts: [{ kind: 'image', mimeType: 'image/png', data: image }] }], tools: [], imageInput: false, describeWith: VISION }, new AbortController().signal);
    assert.strictEqual(later.tally.requests, 1, 'a cancellation is not the model failing: the image is asked again');
    assert.ok(JSON.stringify(later.request.messages).includes('[image described by vision-x'));
  });

  it('what is remembered stays within its bounds and loads back the same; hostile records are dropped on load', () => {
    const arbEntry = fc.record({ key: arbBytes.map(imageKey), model: fc.string({ minLength: 1, maxLength: 30 }), text: fc.string({ maxLength: 9_000 }) });
    const arbHostile = fc.oneof(fc.constant(null), fc.integer(), fc.record({ model: fc.string(), text: fc.integer() }), fc.record({ model: fc.constant(''), text: fc.string() }), fc.record({ model: fc.constant('m'), text: fc.string({ minLength: IMAGE_DESCRIPTION_BOUNDS.maxTextChars + 1, maxLength: IMAGE_DESCRIPTION_BOUNDS.maxTextChars + 50 }) }));
    fc.assert(fc.property(fc.array(arbEntry, { maxLength: 400 }), fc.array(fc.tuple(fc.string(), arbHostile), { maxLength: 5 }), (entries, hostile) => {
      const memo = new ImageDescriptions();
      for (const e of entries) {
        const d = boundedDescription(e.model, e.text);
        if (d) memo.set(e.key, d);
      }
      const saved = memo.toJSON();
      const values = Object.values(saved);
      assert.ok(values.length <= IMAGE_DESCRIPTION_BOUNDS.maxEntries);
      assert.ok(values.reduce((sum, d) => sum + d.text.length + d.model.length, 0) <= IMAGE_DESCRIPTION_BOUNDS.maxTotalChars);
      for (const d of values) assert.deepStrictEqual(validImageDescription(d), d, 'every remembered record passes the load check');
      const store = new MemoryStore();
      store.update('descriptions', { ...Object.fromEntries(hostile.map(([k, v]) => [`bad-${k}`, v])), ...saved });
      const loaded = ImageDescriptions.fromJSON(Object.fromEntries(new PersistedStore(store).loadMap('descriptions', validImageDescription, IMAGE_DESCRIPTION_BOUNDS.maxEntries)));
      assert.deepStrictEqual(loaded.toJSON(), saved);
    }), { numRuns: runs(40) });
  });

  it('the describing model: the setting, else the cheapest listed vision model (unpriced after priced, then by id), none for `none`', () => {
    const arbCandidate = fc.record({ id: fc.string({ minLength: 1, maxLength: 8 }), imageInput: fc.boolean(), inputPrice: fc.option(fc.double({ min: 0, max: 20, noNaN: true }), { nil: undefined }) });
    fc.assert(fc.property(fc.array(arbCandidate, { maxLength: 12 }), (candidates) => {
      assert.strictEqual(describingModel('none', candidates), undefined);
      assert.strictEqual(describingModel(' picked ', candidates), 'picked');
      const chosen = describingModel('', candidates);
      const vision = candidates.filter((c) => c.imageInput);
      if (vision.length === 0) return assert.strictEqual(chosen, undefined);
      const best = vision.find((c) => c.id === chosen);
      assert.ok(best);
      for (const c of vision) {
        assert.ok((best.inputPrice ?? Infinity) <= (c.inputPrice ?? Infinity));
        if ((best.inputPrice ?? Infinity) === (c.inputPrice ?? Infinity)) assert.ok(best.id <= c.id, 'ties go by id');
      }
      assert.strictEqual(describingModel('', [...candidates].reverse()), chosen, 'the list order does not change the choice');
    }));
  });
});
