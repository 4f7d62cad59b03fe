/**
 * The recording's meta file (<session>.meta.json) is read back by its own reader whatever the budget it was
 * written under: with the trim off (unbounded budget and byte ceiling) the report still gets the model and the
 * factors. Written by the real recorder to a real folder, read by the report's reader.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { parseRecordingMeta } from '../core/replay/recordingMeta';
import { SizeMemo } from '../core/trim/messageSize';
import { RequestRecorderFile } from '../vscode/requestRecorderFile';
import { chat } from './support/engineHarness';
import { defaultSettings } from './support/trimHarness';
import { prepareRequest } from './support/prepareRequest';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

const channel = { info: () => undefined, warn: () => undefined } as never;

function recordOne(folder: string, historyTrimOn: boolean, window: number | undefined): { meta: string; promptTokens: number } {
  const settings = { ...defaultSettings, historyTrim: { ...defaultSettings.historyTrim, enabled: historyTrimOn }, contextLimitFallback: 0 };
  const prepared = prepareRequest({ purpose: 'conversation', modelId: 'vendor/model-x', messages: chat('hello '.repeat(50)), tools: [] }, {
    settings, limits: { contextWindow: window }, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), log: new MemoryLogger(),
  });
  const recorder = new RequestRecorderFile(folder, channel);
  recorder.record(prepared);
  const promptTokens = prepared.trim.rawTokens * 2;
  recorder.accounted(prepared, promptTokens);
  const file = fs.readdirSync(path.join(folder, 'requests')).find((f) => f.endsWith('.meta.json'));
  assert.ok(file, 'the meta file is written');
  return { meta: fs.readFileSync(path.join(folder, 'requests', file), 'utf8'), promptTokens };
}

describe('recording meta: what the writer writes, the reader reads', () => {
  for (const [trim, window] of [[false, 200_000], [false, undefined], [true, 200_000]] as const) {
    it(`trim ${trim ? 'on' : 'off'}, window ${window ?? 'unknown'}: model and factors survive`, () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'meta-'));
      try {
        const { meta } = recordOne(folder, trim, window);
        const parsed = parseRecordingMeta(meta);
        assert.ok(parsed, `the reader rejected ${meta}`);
        assert.strictEqual(parsed.model, 'vendor/model-x');
        assert.deepStrictEqual(parsed.factors, [2]);
        assert.strictEqual(parsed.budget === undefined, !trim || window === undefined);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });
  }

  it('any well-formed meta the writer could produce parses back to the same numbers; bad numbers are refused', () => {
    const bound = fc.oneof(fc.constant(null), fc.nat(2_000_000));
    fc.assert(fc.property(fc.string({ maxLength: 40 }), fc.option(fc.nat(2_000_000), { nil: undefined }), fc.nat(100_000), bound, bound, (model, contextWindow, reserve, budget, maxBytes) => {
      const parsed = parseRecordingMeta(JSON.stringify({ model, contextWindow, reserve, budget, maxBytes, factors: [1.5, null] }));
      assert.ok(parsed);
      assert.deepStrictEqual([parsed.budget, parsed.maxBytes, parsed.contextWindow], [budget ?? undefined, maxBytes ?? undefined, contextWindow]);
      assert.deepStrictEqual(parsed.factors, [1.5, null]);
    }));
    for (const bad of [{ budget: -1 }, { maxBytes: 'lots' }, { contextWindow: null, reserve: 'x' }]) {
      assert.strictEqual(parseRecordingMeta(JSON.stringify({ model: 'm', reserve: 1, ...bad, factors: [] })), undefined, JSON.stringify(bad));
    }
  });
});
