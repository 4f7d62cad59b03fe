/**
 * The trim issue's acceptance bar, checked on the numbers: on the 300-request ceiling sessions at
 * B = 613,952 (regimes b, c, d), ours moves the cut at least 30% less often than the leading policy while
 * keeping at least as many tokens on average; warm trim median ≤ 5 ms, cold ≤ 40 ms.
 */
import type { PolicyFigures } from '../metrics/policyFigures';
import type { RegimeResult } from '../run/compareRegime';
import type { TrimSpeed } from '../speed/trimSpeed';
import type { ReportSpeed } from '../speed/reportSpeed';

/** The bar's figures, stated once: the tables, findings and texts print them from here (the session bar, sessionBar.ts, asks for the same share of fewer moves). */
export const TRIM_BAR = { regimes: ['b', 'c', 'd'], minFewerMoves: 0.3, warmTrimMs: 5, coldTrimMs: 40 } as const;
/** "≥30% fewer", as the tables print the moves bar. */
export const FEWER_MOVES_BAR = `≥${Math.round(TRIM_BAR.minFewerMoves * 100)}% fewer`;

export interface RegimeVerdict {
  regime: string;
  oursMoves: number;
  leadingMoves: number;
  /** 1 − ours / leading. */
  fewerMoves: number;
  oursMeanKept: number;
  leadingMeanKept: number;
  leadingOverBudget: number;
  leadingOverBudgetText: number;
  movesPass: boolean;
  keptPass: boolean;
}

export interface Acceptance {
  /** With the cache model's own (JSON) token count: the bar as specified. */
  regimes: RegimeVerdict[];
  /** The same checks with the text-only count a chat-template endpoint would report. */
  regimesTextCount: RegimeVerdict[];
  textCountPass: boolean;
  warmMedianMs: number;
  coldMedianMs: number;
  warmPass: boolean;
  coldPass: boolean;
  /** The open session report, per request (median over the 300-request agent session): speed/reportSpeed.ts. */
  reportMedianMs: number;
  reportPass: boolean;
  pass: boolean;
}

export function figuresOf(result: RegimeResult, policy: string, set: PolicyFigures[] = result.figures): PolicyFigures {
  const figures = set.find((f) => f.policy === policy);
  if (!figures) throw new Error(`no ${policy} figures for regime ${result.regime.id}`);
  return figures;
}

export function regimeVerdict(result: RegimeResult, set: PolicyFigures[] = result.figures): RegimeVerdict {
  const ours = figuresOf(result, 'ours', set);
  const leading = figuresOf(result, 'leading', set);
  const fewerMoves = leading.cutMoves > 0 ? 1 - ours.cutMoves / leading.cutMoves : 0;
  return {
    regime: result.regime.id,
    oursMoves: ours.cutMoves,
    leadingMoves: leading.cutMoves,
    fewerMoves,
    oursMeanKept: ours.meanKept,
    leadingMeanKept: leading.meanKept,
    leadingOverBudget: leading.overBudget,
    leadingOverBudgetText: leading.overBudgetText,
    movesPass: fewerMoves >= TRIM_BAR.minFewerMoves,
    keptPass: ours.meanKept >= leading.meanKept,
  };
}

const passes = (verdicts: readonly RegimeVerdict[]): boolean => verdicts.every((v) => v.movesPass && v.keptPass);

export function checkAcceptance(results: readonly RegimeResult[], speed: TrimSpeed, report: ReportSpeed): Acceptance {
  const barResults = results.filter((r) => (TRIM_BAR.regimes as readonly string[]).includes(r.regime.id));
  const regimes = barResults.map((r) => regimeVerdict(r));
  const regimesTextCount = barResults.filter((r) => r.textCount.length > 0).map((r) => regimeVerdict(r, r.textCount));
  const warmMedianMs = speed.trimWarm.medianMs;
  const coldMedianMs = speed.trimCold.medianMs;
  const warmPass = warmMedianMs <= TRIM_BAR.warmTrimMs;
  const coldPass = coldMedianMs <= TRIM_BAR.coldTrimMs;
  return {
    regimes,
    regimesTextCount,
    textCountPass: warmPass && coldPass && report.pass && passes(regimesTextCount),
    warmMedianMs,
    coldMedianMs,
    warmPass,
    coldPass,
    reportMedianMs: report.perRequest.medianMs,
    reportPass: report.pass,
    pass: warmPass && coldPass && report.pass && passes(regimes),
  };
}
