/**
 * The figures reported per policy and regime, from one run's request records. Cost counts input only
 * (output is the same whatever the trim), with cached tokens at 10% of the input price, relative to
 * sending everything untrimmed.
 */
import type { RequestRecord } from '../run/runPolicy';
import { max, mean, min, percentile } from './stats';

export interface PolicyFigures {
  policy: string;
  label: string;
  params: string;
  requests: number;
  /** Requests that dropped any history. */
  trims: number;
  cutMoves: number;
  /** Cut moves to fewer dropped messages than before: the cut went back towards the start. */
  backMoves: number;
  meanHit: number;
  p10Hit: number;
  under50: number;
  /** Longest run of consecutive cold requests (hit < 50%). */
  maxColdRun: number;
  meanKept: number;
  minKept: number;
  maxKept: number;
  /** Largest request body sent, in bytes. */
  maxBytes: number;
  /** Requests whose o200k prompt exceeds the budget B (a real provider may reject them). */
  overBudget: number;
  /** The same, counting the prompt as a chat template would (PromptBlocks, `text` count). */
  overBudgetText: number;
  meanKeptText: number;
  /** o200k prompt tokens of each request that moved the cut. */
  landings: number[];
  /** The policy's own estimate on those requests (what its low-water mark or ceiling is checked against). */
  landingEstimates: number[];
  /** Request body bytes on those requests (checked against the byte ceiling). */
  landingBytes: number[];
  /** The policy's own estimate and the bytes of the request just before each move: the fullest payload the cut held. */
  peakEstimates: number[];
  peakBytes: number[];
  /** Input cost in full-price token units. */
  cost: number;
  /** cost ÷ the no-trimming run's cost on the same session. */
  costRelative: number;
}

/** A cached token's share of the input price (the usual 90% discount). */
const CACHED_PRICE_SHARE = 0.1;
/** A request below this hit ratio counts as cold. */
const LOW_HIT = 0.5;

export function inputCost(records: readonly RequestRecord[]): number {
  let cost = 0;
  for (const r of records) cost += r.promptTokens - r.cachedTokens + CACHED_PRICE_SHARE * r.cachedTokens;
  return cost;
}

function countBackMoves(records: readonly RequestRecord[]): number {
  let back = 0;
  for (let i = 1; i < records.length; i++) if (records[i].removed < records[i - 1].removed) back++;
  return back;
}

function longestRun<T>(values: readonly T[], test: (value: T) => boolean): number {
  let longest = 0;
  let run = 0;
  for (const value of values) {
    run = test(value) ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

export function policyFigures(
  policy: { id: string; label: string; params: string },
  records: readonly RequestRecord[],
  budgetTokens: number,
  noTrimCost: number,
): PolicyFigures {
  const hits = records.map((r) => r.cacheHit);
  const kept = records.map((r) => r.promptTokens);
  const moves = records.filter((r) => r.cutMoved);
  const peaks = moves.filter((r) => r.i > 0).map((r) => records[r.i - 1]);
  const cost = inputCost(records);
  return {
    policy: policy.id,
    label: policy.label,
    params: policy.params,
    requests: records.length,
    trims: records.filter((r) => r.removed > 0).length,
    cutMoves: moves.length,
    backMoves: countBackMoves(records),
    meanHit: mean(hits),
    p10Hit: percentile(hits, 10),
    under50: hits.filter((h) => h < LOW_HIT).length,
    maxColdRun: longestRun(hits, (h) => h < LOW_HIT),
    meanKept: mean(kept),
    minKept: min(kept),
    maxKept: max(kept),
    maxBytes: max(records.map((r) => r.bytes)),
    overBudget: records.filter((r) => r.promptTokens > budgetTokens).length,
    overBudgetText: records.filter((r) => r.textTokens > budgetTokens).length,
    meanKeptText: mean(records.map((r) => r.textTokens)),
    landings: moves.map((r) => r.promptTokens),
    landingEstimates: moves.map((r) => r.estimate),
    landingBytes: moves.map((r) => r.bytes),
    peakEstimates: peaks.map((r) => r.estimate),
    peakBytes: peaks.map((r) => r.bytes),
    cost,
    costRelative: noTrimCost > 0 ? cost / noTrimCost : 0,
  };
}
