/**
 * The policies ours is compared with: no trimming (the cost baseline), minimal fit, and the leading
 * extension's rule — with its own chars/4 + 10% estimate as it ships, and with our estimator so the
 * cut rule alone can be compared.
 */
import { measureMessage, SizeMemo, type MessageSize } from '../../core/trim/messageSize';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import type { ReplayRequest } from '../../replay/replayFile';
import type { RegimeSpec } from '../sessions/regimes';
import { benchBudget } from './benchSettings';
import { charsSizeOf, charsToolsSize } from './charsEstimate';
import { leadingDropUnits, leadingGeometry } from './leadingCut';
import { minimalFitDropUnits } from './minimalFitCut';
import type { Policy, PolicyDecision, PolicyRun } from './policy';
import { decisionAfterDropping, sizeHistory, type SizedHistory } from './unitCut';

interface Estimator {
  sizeOf(message: WireMessage): MessageSize;
  toolsSize(tools: readonly WireTool[]): MessageSize;
}

/** Our fast estimator, uncalibrated, through a fresh SizeMemo per run (as the extension measures). */
function ourEstimator(): Estimator {
  const memo = new SizeMemo();
  return {
    sizeOf: (message) => memo.sizeOf(message),
    toolsSize: (tools) => (tools.length ? measureMessage({ role: 'system', content: JSON.stringify(tools) }) : { tokens: 0, bytes: 0 }),
  };
}

const charsEstimator = (): Estimator => ({ sizeOf: charsSizeOf, toolsSize: charsToolsSize });

function cutPolicy(estimator: () => Estimator, dropUnits: (history: SizedHistory, regime: RegimeSpec) => number) {
  return (regime: RegimeSpec): PolicyRun => {
    const measure = estimator();
    return {
      decide(request: ReplayRequest): PolicyDecision {
        const history = sizeHistory(request.messages, measure.toolsSize(request.tools), measure.sizeOf);
        return decisionAfterDropping(history, dropUnits(history, regime));
      },
      observe() {},
    };
  };
}

export const noTrimPolicy: Policy = {
  id: 'noTrim',
  label: 'no trimming',
  describe: () => 'sends everything (cost baseline; exceeds the budget)',
  start: cutPolicy(ourEstimator, () => 0),
};

export const minimalFitPolicy: Policy = {
  id: 'minimalFit',
  label: 'minimal fit',
  describe: (regime) => `drop oldest units until ≤ B=${regime.budgetTokens} (our estimator)`,
  start: cutPolicy(ourEstimator, (history, regime) => {
    const budget = benchBudget(regime);
    return minimalFitDropUnits(history, budget.tokens, budget.maxBytes);
  }),
};

function describeLeading(regime: RegimeSpec): string {
  const g = leadingGeometry(regime.budgetTokens);
  return `H=${g.headroom} S=${g.step} lowWater=${g.lowWaterTokens}`;
}

export const leadingPolicy: Policy = {
  id: 'leading',
  label: 'leading extension',
  describe: (regime) => `${describeLeading(regime)} (chars/4 + 10%)`,
  start: cutPolicy(charsEstimator, (history, regime) => leadingDropUnits(history, leadingGeometry(regime.budgetTokens))),
};

export const leadingRuleOurEstimatorPolicy: Policy = {
  id: 'leadingRuleOurEstimator',
  label: 'leading rule, our estimator',
  describe: (regime) => `${describeLeading(regime)} (our estimator, uncalibrated)`,
  start: cutPolicy(ourEstimator, (history, regime) => leadingDropUnits(history, leadingGeometry(regime.budgetTokens))),
};
