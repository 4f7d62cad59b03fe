/**
 * Plain-language findings computed from the numbers, so docs/benchmarks.md says what this run showed —
 * including every regime and figure where ours does not beat the leading policy, and why.
 */
import { resolveSettings } from '../../core/config/settings';
import { mean } from '../metrics/stats';
import { leadingGeometry } from '../policies/leadingCut';
import type { PolicyFigures } from '../metrics/policyFigures';
import type { RegimeResult } from '../run/compareRegime';
import { figuresOf, TRIM_BAR, type Acceptance, type RegimeVerdict } from './acceptance';
import { kTokens, pct } from './format';
import { cutGeometry } from '../../core/trim/budget';

const DEFAULT_TRIM_SETTINGS = resolveSettings(() => undefined, () => undefined).historyTrim;

export interface RegimeFindings {
  regime: string;
  summary: string;
  /** Figures where ours is worse than the leading policy (short phrases). */
  losses: string[];
  /** Why, when there are losses. */
  reasons: string[];
}

/** Leading's own estimate per counted token on its landings: < 1 means it under-counts this text. */
export function estimateRatio(figures: PolicyFigures): number {
  const real = mean(figures.landings);
  return real > 0 ? mean(figures.landingEstimates) / real : 1;
}

/**
 * True when, just before its cut moves, a policy's payload was closer to the byte ceiling than to the
 * token budget as the policy itself estimates tokens: the bytes are what make it trim.
 */
function bytesBind(figures: PolicyFigures, result: RegimeResult): boolean {
  return mean(figures.peakBytes) / result.regime.maxBytes > mean(figures.peakEstimates) / result.regime.budgetTokens;
}

/**
 * Long-run share of cut moves ours saves at our default settings: the leading policy frees S / r counted
 * tokens per move (r = its estimate per counted token), ours one grid. The first trim adds one move to both.
 */
function expectedFewerMoves(result: RegimeResult, leading: PolicyFigures): number {
  const step = leadingGeometry(result.regime.budgetTokens).step;
  const grid = cutGeometry(result.regime.budgetTokens, DEFAULT_TRIM_SETTINGS).grid;
  return 1 - step / (estimateRatio(leading) * grid);
}

/** "~36% fewer" / "~11% more": the long-run share the step sizes predict. */
const expectedText = (fewer: number): string => `~${Math.abs(Math.round(fewer * 100))}% ${fewer >= 0 ? 'fewer' : 'more'}`;

const moreOrFewer = (ours: number, theirs: number): string => {
  const fewer = theirs > 0 ? Math.round((1 - ours / theirs) * 100) : 0;
  return fewer >= 0 ? `${fewer}% fewer` : `${-fewer}% more`;
};

function reasonsOf(result: RegimeResult, leading: PolicyFigures, ours: PolicyFigures): string[] {
  const ratio = estimateRatio(leading);
  const reasons: string[] = [];
  if (ratio < 0.97) {
    reasons.push(`chars/4 + 10% counts this text at ${ratio.toFixed(2)}× the cache model's count, so each of the leading policy's ` +
      `steps frees ~${(1 / ratio).toFixed(2)}× more tokens than it thinks: fewer moves, and a payload larger than it believes`);
  } else if (ratio > 1.03) {
    reasons.push(`chars/4 + 10% counts this text at ${ratio.toFixed(2)}× the cache model's count, so the leading policy trims below the ` +
      `budget and its steps are ${(1 / ratio).toFixed(2)}× the size it thinks`);
  }
  if (leading.overBudget > 0) {
    reasons.push(`${leading.overBudget} of its requests exceed B as the cache model counts (chat template), ${leading.overBudgetText} by the text-only count`);
  }
  if (bytesBind(leading, result)) {
    reasons.push(`just before its cut moves the leading policy is nearer the byte ceiling (${result.regime.maxBytes.toLocaleString('en-US')} bytes) than ` +
      'the token budget: the bytes, not its token estimate, start its trims');
  }
  if (ours.costRelative > leading.costRelative) {
    reasons.push('ours keeps more context, and every kept token is paid for on every request (at 10% when cached)');
  }
  if (ours.backMoves > 0) {
    reasons.push('a move back happens when the calibration factor drops right after a move and the shorter cut fits the ceiling again ' +
      '(historyTrim checks the fit with the unrounded factor); the next request moves forward again');
  }
  return reasons;
}

export function regimeFindings(result: RegimeResult): RegimeFindings {
  const ours = figuresOf(result, 'ours');
  const leading = figuresOf(result, 'leading');
  const rule = figuresOf(result, 'leadingRuleOurEstimator');
  const expected = bytesBind(leading, result) ? '' : `; the step sizes predict ${expectedText(expectedFewerMoves(result, leading))} in the long run`;
  const summary =
    `ours moved the cut ${ours.cutMoves} times against the leading policy's ${leading.cutMoves} (${moreOrFewer(ours.cutMoves, leading.cutMoves)}${expected}) and the leading rule's ` +
    `${rule.cutMoves} with our estimator; mean cache hit ${pct(ours.meanHit)} vs ${pct(leading.meanHit)}; ` +
    `mean kept ${kTokens(ours.meanKept)} vs ${kTokens(leading.meanKept)} tokens; input cost ${ours.costRelative.toFixed(3)} vs ${leading.costRelative.toFixed(3)} of no trimming.`;
  const losses: string[] = [];
  if (ours.cutMoves > leading.cutMoves) losses.push(`more cut moves (${ours.cutMoves} vs ${leading.cutMoves})`);
  if (ours.meanKept < leading.meanKept) losses.push(`fewer tokens kept on average (${kTokens(ours.meanKept)} vs ${kTokens(leading.meanKept)})`);
  if (ours.meanHit < leading.meanHit) losses.push(`lower mean cache hit (${pct(ours.meanHit)} vs ${pct(leading.meanHit)})`);
  if (ours.costRelative > leading.costRelative) losses.push(`higher input cost (${ours.costRelative.toFixed(3)} vs ${leading.costRelative.toFixed(3)})`);
  if (ours.cutMoves > rule.cutMoves || ours.meanKept < rule.meanKept) {
    losses.push(`against the leading rule on our estimator: ${rule.cutMoves} moves and ${kTokens(rule.meanKept)} kept vs ours ${ours.cutMoves} and ${kTokens(ours.meanKept)}`);
  }
  if (ours.overBudget > 0) losses.push(`${ours.overBudget} of our requests exceed B`);
  if (ours.backMoves > 0) losses.push(`${ours.backMoves} of our cut moves went back to a shorter cut`);
  return { regime: result.regime.id, summary, losses, reasons: losses.length ? reasonsOf(result, leading, ours) : [] };
}

/** One sentence on the text-only count run, for the regimes that have it. */
export function textCountFinding(result: RegimeResult): string | undefined {
  if (result.textCount.length === 0) return undefined;
  const ours = figuresOf(result, 'ours', result.textCount);
  const leading = figuresOf(result, 'leading', result.textCount);
  const rule = figuresOf(result, 'leadingRuleOurEstimator', result.textCount);
  const back = ours.backMoves ? ` (${ours.backMoves} of them back to a shorter cut)` : '';
  return `ours ${ours.cutMoves} cut moves${back} vs the leading policy's ${leading.cutMoves} (${moreOrFewer(ours.cutMoves, leading.cutMoves)}) ` +
    `and the leading rule's ${rule.cutMoves}; mean kept ${kTokens(ours.meanKept)} vs ${kTokens(leading.meanKept)}; ` +
    `leading over B on ${leading.overBudget} requests.`;
}

/** The acceptance result in a few sentences: which checks fail, and the reason the numbers give. */
export function acceptanceSummary(acceptance: Acceptance, regimes: readonly RegimeResult[]): string {
  const sentences: string[] = [];
  const explain = (verdicts: readonly RegimeVerdict[], count: 'json' | 'text'): void => {
    for (const v of verdicts.filter((x) => !x.movesPass || !x.keptPass)) {
      const result = regimes.find((r) => r.regime.id === v.regime);
      if (!result) continue;
      const set = count === 'json' ? result.figures : result.textCount;
      const leading = figuresOf(result, 'leading', set);
      const ours = figuresOf(result, 'ours', set);
      const label = count === 'json' ? 'cache-model count' : 'text-only count';
      const problems: string[] = [];
      if (!v.movesPass) {
        problems.push(`ours moves the cut ${Math.round(v.fewerMoves * 100)}% less often (bar ${Math.round(TRIM_BAR.minFewerMoves * 100)}%); the step sizes predict ` +
          `${expectedText(expectedFewerMoves(result, leading))} in the long run, as chars/4 + 10% counts this text at ${estimateRatio(leading).toFixed(2)}× ` +
          `and 300 requests hold only ${leading.cutMoves} moves, so one move is ~${Math.round(100 / Math.max(1, leading.cutMoves))} points` +
          (ours.backMoves ? `; ${ours.backMoves} of our ${ours.cutMoves} moves went back to a shorter cut and forward again` : ''));
      }
      if (!v.keptPass) {
        problems.push(`the leading policy keeps more tokens on average (${kTokens(v.leadingMeanKept)} vs ${kTokens(v.oursMeanKept)}) ` +
          `but sends more than B on ${leading.overBudget} of ${leading.requests} requests`);
      }
      sentences.push(`(${v.regime}), ${label}: ${problems.join('; ')}.`);
    }
  };
  explain(acceptance.regimes, 'json');
  explain(acceptance.regimesTextCount, 'text');
  if (!acceptance.warmPass) sentences.push(`The warm trim median is ${acceptance.warmMedianMs.toFixed(2)} ms (bar ${TRIM_BAR.warmTrimMs} ms).`);
  if (!acceptance.coldPass) sentences.push(`The cold trim median is ${acceptance.coldMedianMs.toFixed(1)} ms (bar ${TRIM_BAR.coldTrimMs} ms); check the load average above.`);
  return sentences.length ? `Failing checks — ${sentences.join(' ')}` : 'Every check passes.';
}
