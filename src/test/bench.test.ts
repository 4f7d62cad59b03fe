import * as assert from 'assert';
import { PrefixCacheModel } from '../cacheModel/prefixCache';
import { countTextTokens } from '../cacheModel/valueTokens';
import { PromptBlocks } from '../bench/cache/promptBlocks';
import { leadingPolicy, minimalFitPolicy } from '../bench/policies/baselines';
import { OURS_DEFAULT } from '../bench/policies/catalog';
import { leadingGeometry } from '../bench/policies/leadingCut';
import { runPolicy, type RequestRecord } from '../bench/run/runPolicy';
import type { RegimeSpec } from '../bench/sessions/regimes';
import { generateSession, requestAt, type BenchSession } from '../bench/sessions/sessionGenerator';
import { measureCharsPerToken } from '../bench/sessions/textOfTokens';
import type { WireMessage } from '../core/wire/wireTypes';

/** A 40-request ceiling session at a 40K budget: headroom and step are capped at 4,000, our grid is 8,000. */
const SHORT: RegimeSpec = {
  id: 'test',
  title: 'short test session',
  seed: 77,
  requests: 40,
  window: 100_000,
  maxOutputTokens: 20_000,
  budgetTokens: 40_000,
  systemTokens: 1_500,
  toolCount: 4,
  toolTokens: 1_500,
  anchorTokens: 200,
  unitTokens: 800,
  growthTokens: 1_000,
  userEvery: 6,
  parallelCalls: [1, 2],
  toolOutput: { typescript: 2, jsonPretty: 1, english: 1 },
  assistantText: { english: 1 },
  userText: { english: 1 },
  sweep: false,
  textCount: false,
};

const moves = (records: readonly RequestRecord[]): number => records.filter((r) => r.cutMoved).length;

describe('bench: policy comparison on a short ceiling session', () => {
  let session: BenchSession;
  let blocks: PromptBlocks;

  before(() => {
    blocks = new PromptBlocks();
    session = generateSession(SHORT, blocks.sizer('json'), measureCharsPerToken(countTextTokens));
  });

  it('generates the same session from the same seed (warm block memo or cold), another from another seed, pre-filled to just under the budget', () => {
    // `blocks` is warm now (it sized `session`); a benchmark run must not depend on what was measured before.
    const again = generateSession(SHORT, blocks.sizer('json'), measureCharsPerToken(countTextTokens));
    assert.deepStrictEqual(again.messages, session.messages);
    assert.deepStrictEqual(again.requestEnds, session.requestEnds);
    const other = generateSession({ ...SHORT, seed: SHORT.seed + 1 }, blocks.sizer('json'), measureCharsPerToken(countTextTokens));
    assert.notDeepStrictEqual(other.messages, session.messages);
    assert.ok(session.stats.prefillTokens <= SHORT.budgetTokens && session.stats.prefillTokens > SHORT.budgetTokens * 0.9, `pre-fill ${session.stats.prefillTokens}`);
  });

  it('measures a request exactly as PrefixCacheModel.measure does', () => {
    const request = requestAt(session, 10);
    const ours = blocks.measureRequest(request.messages, request.tools);
    const model = new PrefixCacheModel().measure({ messages: request.messages, tools: request.tools });
    assert.deepStrictEqual(ours, model);
  });

  it('uses the leading extension\'s published geometry at the production session budget', () => {
    const g = leadingGeometry(613_952);
    assert.deepStrictEqual([g.headroom, g.lowWaterTokens, g.step, g.maxBytes], [18_418, 595_534, 32_768, 2_762_784]);
  });

  it('lands the leading policy at or below its low-water mark after every move', () => {
    const g = leadingGeometry(SHORT.budgetTokens);
    const records = runPolicy(session, leadingPolicy, blocks);
    const moved = records.filter((r) => r.cutMoved && r.removed > 0);
    assert.ok(moved.length >= 3, `leading moved ${moved.length} times`);
    for (const r of moved) assert.ok(r.estimate <= g.lowWaterTokens, `request ${r.i} landed at ${r.estimate} > ${g.lowWaterTokens}`);
  });

  it('moves the cut more often with minimal fit than with the leading policy or ours', () => {
    const minimal = moves(runPolicy(session, minimalFitPolicy, blocks));
    const leading = moves(runPolicy(session, leadingPolicy, blocks));
    const ours = moves(runPolicy(session, OURS_DEFAULT, blocks));
    assert.ok(minimal > leading && minimal > ours, `minimal ${minimal}, leading ${leading}, ours ${ours}`);
    assert.ok(ours < leading, `ours ${ours} vs leading ${leading}`);
  });

  it('sends nested prefixes with our policy while the cut holds, and the cache hits them', () => {
    let previous: { removed: number; sent: WireMessage[] } | undefined;
    let held = 0;
    const records = runPolicy(session, OURS_DEFAULT, blocks, { onDecision: (_i, request, decision) => {
      const sent = decision.sentIndices.map((k) => request.messages[k]);
      const removed = request.messages.length - sent.length;
      if (previous && removed === previous.removed && removed > 0) {
        held++;
        assert.ok(previous.sent.every((m, k) => sent[k] === m), 'the previous payload is a prefix of this one');
      }
      previous = { removed, sent };
    } });
    assert.ok(held >= 10, `the cut held on ${held} requests`);
    for (const r of records.filter((x) => !x.cutMoved)) assert.ok(r.cacheHit > 0.9, `request ${r.i} hit ${r.cacheHit}`);
  });
});
