/**
 * Calibration never learns from an anomalous usage record, nor jumps on a first outlier: one odd
 * answer used to set a model's factor (persisted) to its floor, and the next request carried about twice what a
 * fresh start would send.
 */
import * as assert from 'assert';
import { resolveSettings } from '../core/config/settings';
import { ChatEngine } from '../core/request/chatEngine';
import { chat, MemoryStore } from './support/engineHarness';
import { scriptedServer } from './support/scriptedServer';
import { WIRE_SCRIPTS } from './support/wireScripts';
import { Calibrations } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

describe('calibration: what it may learn from', () => {
  it('a first sample far from the default waits for a second that agrees; a first sample near it is taken at once', () => {
    const c = new Calibrations();
    assert.strictEqual(c.observe('m', 10_000, 2_000)?.factor, 1, 'a first outlier (0.2) does not move the factor');
    assert.strictEqual(c.factor('m'), 1);
    assert.strictEqual(c.observe('m', 10_000, 21_000)?.factor, 1, 'a second outlier that disagrees with the first does not either');
    assert.strictEqual(c.observe('m', 10_000, 20_000)?.factor, 2, 'two that agree: the model really is far from 1');
    const near = new Calibrations();
    assert.strictEqual(near.observe('n', 10_000, 12_000)?.factor, 1.2);
  });

  for (const wire of WIRE_SCRIPTS.filter((w) => w.id !== 'messages')) {
    it(`${wire.id}: usage whose cache reads exceed its prompt is reported, and calibration does not learn from it`, async () => {
      const run = async (usage: { prompt: number; cached: number; output: number }) => {
        const server = await scriptedServer({ body: [...wire.start(usage), ...wire.text('ok'), ...wire.done('stop', usage)].join(''), contentType: 'text/event-stream' });
        const log = new MemoryLogger();
        const values: Record<string, unknown> = { baseUrl: server.url, models: { m: { api: wire.id } } };
        const settings = resolveSettings((key) => values[key], () => undefined);
        const engine = new ChatEngine({ log, store: new MemoryStore(), settings: () => settings, apiKey: async () => undefined, timing: { sleep: async () => undefined, random: () => 0 } });
        try {
          await engine.run({ purpose: 'conversation', modelId: 'm', messages: chat('word '.repeat(6_000)), tools: [] }, { contextWindow: 200_000 }, () => undefined, new AbortController().signal);
        } finally {
          await server.close();
        }
        return { log, factor: engine.calibrations.factor('m') };
      };
      const odd = await run({ prompt: 600, cached: 6_000, output: 3 });
      assert.ok(odd.log.messages('warn').some((l) => l.includes('sent inconsistent usage')));
      assert.ok(!odd.log.messages('info').some((l) => l.startsWith('[calibrate]')));
      assert.strictEqual(odd.factor, 1);
      const fine = await run({ prompt: 6_600, cached: 6_000, output: 3 });
      assert.ok(fine.log.messages('info').some((l) => l.startsWith('[calibrate]')), 'a consistent record is learned from');
    });
  }
});
