/**
 * One set of stream rules, the same on every route: each rule is run on the four routes' wire formats
 * (support/wireScripts.ts), read split at random byte positions, through `route.newReader()`.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { routeById } from '../core/routes/registry/registry';
import { callsOf, readSplit, textOf } from './support/routeHarness';
import { WIRE_SCRIPTS, wireOf, type WireCall } from './support/wireScripts';
import { stoppedNote } from '../core/answer/answerReader';
import { runs } from './support/propertyRuns';

const read = (id: Parameters<typeof routeById>[0], frames: string[], seed = 'seed', cuts: number[] = []) => {
  const reader = routeById(id).newReader(seed);
  const out = readSplit(reader, frames.join(''), cuts);
  return { reader, out, result: reader.result() };
};

const cutsArb = fc.array(fc.nat({ max: 4_000 }), { maxLength: 10 });

describe('stream rules on every route', () => {
  for (const wire of WIRE_SCRIPTS) {
    describe(wire.id, () => {
      it('usage given as numeric strings is counted, not read as 0', () => {
        const usage = { prompt: '1200', cached: '1000', output: '30' };
        const { result } = read(wire.id, [...wire.start(usage), ...wire.text('hi'), ...wire.done('stop', usage)]);
        assert.deepStrictEqual([result.usage?.contextTokens, result.usage?.cachedTokens, result.usage?.completionTokens], [1200, 1000, 30]);
      });

      it('an empty usage object is no usage (never an all-zero usage event)', () => {
        const { result, out } = read(wire.id, [...wire.start('empty'), ...wire.text('hi'), ...wire.done('stop', 'empty')]);
        assert.strictEqual(result.usage, undefined);
        assert.deepStrictEqual(out.events.filter((e) => e.kind === 'usage'), []);
      });

      if (wire.id !== 'messages') {
        // (Anthropic's input_tokens excludes the cache by definition: reads can never exceed it.)
        it('cache reads above the prompt: context = prompt + reads, and the anomaly is reported', () => {
          const usage = { prompt: 100, cached: 1000, output: 5 };
          const { result } = read(wire.id, [...wire.start(usage), ...wire.text('hi'), ...wire.done('stop', usage)]);
          assert.strictEqual(result.usage?.contextTokens, 1100);
          assert.match(result.usageAnomaly ?? '', /more cache reads( and writes)? \(1000\) than prompt tokens \(100\)/);
        });
      }

      it('parallel calls with a broken one in the middle: the others are delivered, the broken one dropped alone, usage kept', () => {
        fc.assert(
          fc.property(cutsArb, (cuts) => {
            const calls: WireCall[] = [
              { id: 'call_a', name: 'read_file', args: '{"path":"a.ts"}' },
              { id: 'call_b', name: 'edit', args: '{"path": ' },
              { id: 'call_c', name: 'grep', args: '{"q":"x"}' },
            ];
            const usage = { prompt: 500, cached: 0, output: 9 };
            const { out, result } = read(wire.id, [...wire.start(usage), ...wire.calls(calls), ...wire.done('tool', usage)], 'seed', cuts);
            assert.deepStrictEqual(callsOf(out.events).map((c) => [c.callId, c.name, c.input]), [['call_a', 'read_file', { path: 'a.ts' }], ['call_c', 'grep', { q: 'x' }]]);
            assert.deepStrictEqual(result.dropped.map((d) => [d.name, d.why]), [['edit', 'not-json']]);
            assert.strictEqual(result.usage?.contextTokens, 500);
            assert.strictEqual(result.finishReason, 'tool_calls');
          }),
          { numRuns: runs(40) },
        );
      });

      it('call ids are non-empty and unique: a missing or repeated id is synthesized, the same for the same answer', () => {
        const calls: WireCall[] = [
          { id: '', name: 'read_file', args: '{"path":"a"}' },
          { id: 'call_x', name: 'read_file', args: '{"path":"b"}' },
          { id: 'call_x', name: 'read_file', args: '{"path":"c"}' },
        ];
        const frames = [...wire.start(), ...wire.calls(calls), ...wire.done('tool')];
        const ids = (seed: string) => callsOf(read(wire.id, frames, seed).out.events).map((c) => c.callId);
        const first = ids('answer-1');
        assert.strictEqual(first.length, 3);
        assert.ok(first.every((id) => id.length > 0));
        assert.strictEqual(new Set(first).size, 3);
        assert.deepStrictEqual(ids('answer-1'), first, 'deterministic for one answer');
        if (wire.id !== 'gemini') assert.strictEqual(first[1], 'call_x', 'the wire id is kept where it is unique');
      });

      it('a name the wire repeats whole is not concatenated', () => {
        const { out } = read(wire.id, [...wire.start(), ...wire.calls([{ id: 'call_1', name: 'read_file', args: '{}' }]), ...wire.done('tool')]);
        assert.deepStrictEqual(callsOf(out.events).map((c) => c.name), ['read_file']);
      });

      it('an `event: error` frame is an error with or without a type, JSON or plain text; so is the format\'s own error object', () => {
        for (const frame of ['event: error\ndata: {"message":"Overloaded"}\n\n', 'event: error\ndata: Overloaded\n\n', 'event: error\ndata: {"type":"error","error":{"message":"Overloaded"}}\n\n', wire.errorObject('Overloaded')]) {
          const { out } = read(wire.id, [...wire.start(), ...wire.text('Hel'), frame]);
          assert.strictEqual(out.errors.length, 1, frame);
          assert.strictEqual(out.errors[0].message, 'Overloaded', frame);
          assert.strictEqual(textOf(out.events, 'text'), 'Hel');
        }
      });

      if (wire.refusal) {
        const refusal = wire.refusal;
        it('a refusal is shown as the model\'s words, never as an empty answer', () => {
          const { out, result } = read(wire.id, [...wire.start(), ...refusal('I can\'t help with that.'), ...wire.done('stop')]);
          assert.strictEqual(textOf(out.events, 'text'), 'I can\'t help with that.');
          assert.ok(result.textChars > 0);
        });
      }

      it('a stop by the provider\'s filter after text: the text, then a short note', () => {
        const { out, result } = read(wire.id, [...wire.start(), ...wire.text('Once upon'), ...wire.done('filter')]);
        const text = textOf(out.events, 'text');
        assert.ok(text.startsWith('Once upon') && text.length > 'Once upon'.length, JSON.stringify(text));
        assert.strictEqual(text.slice('Once upon'.length), stoppedNote(text.slice(text.indexOf(': ') + 2, -3)));
        assert.strictEqual(result.finishReason, 'content_filter');
      });

      it('OpenCode\'s cost frame after the end is read as the answer\'s cost in dollars', () => {
        const { result, out } = read(wire.id, [...wire.start(), ...wire.text('hi'), ...wire.done('stop'), wire.cost('0.012345')]);
        assert.strictEqual(result.cost, 0.012345);
        assert.deepStrictEqual(out.malformed, []);
      });

      it('a keep-alive is not progress (the idle timeout keeps running); text is', () => {
        const reader = routeById(wire.id).newReader();
        const payload = (frame: string): string => frame.slice(frame.indexOf('data: ') + 6).trim();
        for (const frame of wire.start()) reader.push(payload(frame));
        assert.strictEqual(reader.push(payload(wire.keepAlive())).progress, false);
        assert.strictEqual(reader.push(payload(wire.cost('0.1'))).progress, false);
        assert.ok(wire.text('x').map((frame) => reader.push(payload(frame)).progress).includes(true));
      });
    });
  }
});

describe('stream rules: Responses call items', () => {
  const wire = wireOf('responses');
  const ev = (payload: Record<string, unknown>) => `event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`;
  const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: '' };

  it('deltas before output_item.added, an empty arguments.done and a repeated .added never lose the arguments', () => {
    const frames = [
      ev({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"path":' }),
      ev({ type: 'response.output_item.added', output_index: 0, item }),
      ev({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '"a.ts"}' }),
      ev({ type: 'response.output_item.added', output_index: 0, item }),
      ev({ type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: '' }),
      ev({ type: 'response.output_item.done', output_index: 0, item }),
      ...wire.done('tool'),
    ];
    const { out } = read('responses', frames);
    assert.deepStrictEqual(callsOf(out.events), [{ callId: 'call_1', name: 'read_file', input: { path: 'a.ts' } }]);
  });

  it('response.completed repeating the streamed calls under other call ids delivers each call once', () => {
    const calls = [{ id: 'call_a', name: 'grep', args: '{"q":"x"}' }, { id: 'call_b', name: 'ls', args: '{}' }];
    const repeated = ev({
      type: 'response.completed',
      response: { status: 'completed', output: [{ type: 'message' }, ...calls.map((c, i) => ({ type: 'function_call', id: `fc_other_${i}`, call_id: `call_other_${i}`, name: c.name, arguments: c.args }))] },
    });
    const { out } = read('responses', [...wire.calls(calls), repeated]);
    assert.deepStrictEqual(callsOf(out.events).map((c) => c.callId), ['call_a', 'call_b']);
  });
});
