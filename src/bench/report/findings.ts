/**
 * Plain-language findings computed from the numbers, so docs/benchmarks.md says what this run showed —
 * including every regime and figure where ours does not beat the leading policy, and why.
 */
import { mean } from '../metrics/stats';
import type { PolicyFigures } from '../metrics/policyFigures';
import type { RegimeResult } from '../run/compareRegime';
import { figuresOf } from './acceptance';
import { kTokens, pct } from './format';

export interface RegimeFindings {
  regime: string;
  summary: string;
  /** Figures where ours is worse than the leading policy, each with its reason. */
  losses: string[];
}

/** Leading's own estimate per real (o200k) token on its landings: < 1 means it under-counts this text. */
export function estimateRatio(figures: PolicyFigures): number {
  const real = mean(figures.landings);
  return real > 0 ? mean(figures.landingEstimates) / real : 1;
}

/** True when a policy's landings sit closer to the byte ceiling than to the token budget. */
function bytesBind(figures: PolicyFigures, result: RegimeResult): boolean {
  return mean(figures.landingBytes) / result.regime.maxBytes > mean(figures.landings) / result.regime.budgetTokens;
}

function whyLeadingDiffers(result: RegimeResult, leading: PolicyFigures, ours: PolicyFigures): string {
  const ratio = estimateRatio(leading);
  const reasons: string[] = [];
  if (ratio < 0.97) {
    reasons.push(`chars/4 + 10% counts this text at ${ratio.toFixed(2)}× its o200k size, so each of the leading policy's steps ` +
      `frees ~${(1 / ratio).toFixed(2)}× more real tokens than it thinks`);
  } else if (ratio > 1.03) {
    reasons.push(`chars/4 + 10% counts this text at ${ratio.toFixed(2)}× its o200k size, so the leading policy trims below the budget ` +
      `in real tokens and its steps are ${(1 / ratio).toFixed(2)}× smaller than it thinks`);
  } else {
    reasons.push('chars/4 + 10% is within 3% of o200k on this text, so the difference is the cut rule itself');
  }
  if (leading.overBudget > 0) {
    reasons.push(`${leading.overBudget} of its requests exceed B as the cache model counts them (message JSON), ` +
      `${leading.overBudgetText} counting only the text a chat template would tokenize`);
  }
  if (bytesBind(leading, result)) {
    reasons.push(`what holds the leading policy near the budget here is the byte ceiling (${result.regime.maxBytes.toLocaleString('en-US')} bytes), not its token estimate`);
  }
  if (bytesBind(ours, result)) {
    reasons.push(`the byte ceiling (${result.regime.maxBytes.toLocaleString('en-US')} bytes) binds before the token budget for ours here`);
  }
  return reasons.join('; ');
}

export function regimeFindings(result: RegimeResult): RegimeFindings {
  const ours = figuresOf(result, 'ours');
  const leading = figuresOf(result, 'leading');
  const rule = figuresOf(result, 'leadingRuleOurEstimator');
  const fewer = leading.cutMoves > 0 ? Math.round((1 - ours.cutMoves / leading.cutMoves) * 100) : 0;
  const summary =
    `ours moved the cut ${ours.cutMoves} times against the leading policy's ${leading.cutMoves} (${fewer >= 0 ? `${fewer}% fewer` : `${-fewer}% more`}) ` +
    `and the leading rule's ${rule.cutMoves} with our estimator; mean cache hit ${pct(ours.meanHit)} vs ${pct(leading.meanHit)}; ` +
    `mean kept ${kTokens(ours.meanKept)} vs ${kTokens(leading.meanKept)} tokens; input cost ${ours.costRelative.toFixed(3)} vs ${leading.costRelative.toFixed(3)} of no trimming.`;
  const losses: string[] = [];
  const why = whyLeadingDiffers(result, leading, ours);
  if (ours.cutMoves > leading.cutMoves) losses.push(`more cut moves (${ours.cutMoves} vs ${leading.cutMoves}): ${why}.`);
  if (ours.meanKept < leading.meanKept) losses.push(`fewer tokens kept on average (${kTokens(ours.meanKept)} vs ${kTokens(leading.meanKept)}): ${why}.`);
  if (ours.meanHit < leading.meanHit) losses.push(`lower mean cache hit (${pct(ours.meanHit)} vs ${pct(leading.meanHit)}): ${why}.`);
  if (ours.costRelative > leading.costRelative) {
    losses.push(`higher input cost (${ours.costRelative.toFixed(3)} vs ${leading.costRelative.toFixed(3)} of no trimming): ours keeps more context, and every token kept is paid for on every request (at 10% when cached).`);
  }
  if (ours.cutMoves > rule.cutMoves || ours.meanKept < rule.meanKept) {
    losses.push(`against the leading rule with our estimator (the rule alone): ${rule.cutMoves} moves and ${kTokens(rule.meanKept)} kept vs ours ${ours.cutMoves} and ${kTokens(ours.meanKept)}.`);
  }
  if (ours.overBudget > 0) losses.push(`${ours.overBudget} of our requests exceed B in o200k tokens (estimator error larger than the 0.5% margin before calibration settled).`);
  if (ours.backMoves > 0) {
    losses.push(`${ours.backMoves} of our cut moves went back to fewer dropped messages: the calibration factor fell after a move, so a cut one grid step ` +
      `shorter fitted again for a request (see the report on src/core/trim/historyTrim.ts).`);
  }
  return { regime: result.regime.id, summary, losses };
}
