/**
 * The trim issue's acceptance bar, checked on the numbers: on the 300-request ceiling sessions at
 * B = 613,952 (regimes b, c, d), ours moves the cut at least 30% less often than the leading policy while
 * keeping at least as many tokens on average; warm trim median ≤ 5 ms, cold ≤ 40 ms.
 */
import type { PolicyFigures } from '../metrics/policyFigures';
import type { RegimeResult } from '../run/compareRegime';
import type { TrimSpeed } from '../speed/trimSpeed';

export const BAR_REGIMES = ['b', 'c', 'd'] as const;
export const MIN_FEWER_MOVES = 0.3;
export const WARM_TRIM_LIMIT_MS = 5;
export const COLD_TRIM_LIMIT_MS = 40;

export interface RegimeVerdict {
  regime: string;
  oursMoves: number;
  leadingMoves: number;
  /** 1 − ours / leading. */
  fewerMoves: number;
  oursMeanKept: number;
  leadingMeanKept: number;
  leadingOverBudget: number;
  movesPass: boolean;
  keptPass: boolean;
}

export interface Acceptance {
  regimes: RegimeVerdict[];
  warmMedianMs: number;
  coldMedianMs: number;
  warmPass: boolean;
  coldPass: boolean;
  pass: boolean;
}

export function figuresOf(result: RegimeResult, policy: string): PolicyFigures {
  const figures = result.figures.find((f) => f.policy === policy);
  if (!figures) throw new Error(`no ${policy} figures for regime ${result.regime.id}`);
  return figures;
}

export function regimeVerdict(result: RegimeResult): RegimeVerdict {
  const ours = figuresOf(result, 'ours');
  const leading = figuresOf(result, 'leading');
  const fewerMoves = leading.cutMoves > 0 ? 1 - ours.cutMoves / leading.cutMoves : 0;
  return {
    regime: result.regime.id,
    oursMoves: ours.cutMoves,
    leadingMoves: leading.cutMoves,
    fewerMoves,
    oursMeanKept: ours.meanKept,
    leadingMeanKept: leading.meanKept,
    leadingOverBudget: leading.overBudget,
    movesPass: fewerMoves >= MIN_FEWER_MOVES,
    keptPass: ours.meanKept >= leading.meanKept,
  };
}

export function checkAcceptance(results: readonly RegimeResult[], speed: TrimSpeed): Acceptance {
  const regimes = results.filter((r) => (BAR_REGIMES as readonly string[]).includes(r.regime.id)).map(regimeVerdict);
  const warmMedianMs = speed.trimWarm.medianMs;
  const coldMedianMs = speed.trimCold.medianMs;
  const warmPass = warmMedianMs <= WARM_TRIM_LIMIT_MS;
  const coldPass = coldMedianMs <= COLD_TRIM_LIMIT_MS;
  return { regimes, warmMedianMs, coldMedianMs, warmPass, coldPass, pass: warmPass && coldPass && regimes.every((r) => r.movesPass && r.keptPass) };
}
