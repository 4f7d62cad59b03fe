/**
 * The policies ours is compared with: no trimming (the cost baseline), minimal fit, and the leading
 * extension's rule — with its own chars/4 + 10% estimate as it ships, and with our estimator so the
 * cut rule alone can be compared.
 */
import { measureMessage, measureTools, type MessageSize } from '../../core/trim/messageSize';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import type { ReplayRequest } from '../../core/replay/replayFile';
import type { RegimeSpec } from '../sessions/regimes';
import { benchBudget } from './benchSettings';
import { charsSizeOf, charsToolsSize } from './charsEstimate';
import { leadingDropUnits, leadingGeometry } from './leadingCut';
import { minimalFitDropUnits } from '../../core/report/minimalFitCut';
import type { Policy, PolicyRun } from './policy';
import { decisionAfterDropping, sizeHistory, type PolicyDecision, type SizedHistory } from '../../core/report/unitCut';
import { Calibrations } from '../../core/trim/trimState';

interface Estimator {
  sizeOf(message: WireMessage): MessageSize;
  toolsSize(tools: readonly WireTool[]): MessageSize;
}

const ourSizes = new WeakMap<WireMessage, MessageSize>();
const ourToolSizes = new WeakMap<readonly WireTool[], MessageSize>();

/**
 * Our fast estimator (measureMessage, what SizeMemo stores). Memoized by message object: the benchmark
 * re-sends the same objects, and these policies' speed is not what is measured, only their decisions.
 */
function ourEstimator(): Estimator {
  return {
    sizeOf: (message) => memoized(ourSizes, message, () => measureMessage(message)),
    toolsSize: (tools) => memoized(ourToolSizes, tools, () => measureTools(tools)),
  };
}

function memoized<K extends object>(memo: WeakMap<K, MessageSize>, key: K, measure: () => MessageSize): MessageSize {
  let size = memo.get(key);
  if (!size) {
    size = measure();
    memo.set(key, size);
  }
  return size;
}

const charsEstimator = (): Estimator => ({ sizeOf: charsSizeOf, toolsSize: charsToolsSize });

const MODEL_ID = 'bench-model';

function scaled(size: MessageSize, factor: number): MessageSize {
  return factor === 1 ? size : { tokens: size.tokens * factor, bytes: size.bytes };
}

/**
 * How a rule applies the factor learned from the reported prompt tokens (as ours calibrates, so the rule
 * and not the estimate is compared). `quantized` rounds it to 0.05, as our grid did before it was frozen (cutPolicy.gridFor):
 * a rule with a step grid would otherwise move its cut on calibration noise alone. Minimal fit has no
 * grid and no margin, so it takes the exact factor.
 */
type Calibration = 'none' | 'exact' | 'quantized';

function applied(calibration: Calibration, factor: number): number {
  if (calibration === 'none') return 1;
  return calibration === 'exact' ? factor : Math.max(0.25, Math.round(factor * 20) / 20);
}

/** A stateless cut rule over an estimator. */
function cutPolicy(estimator: () => Estimator, dropUnits: (history: SizedHistory, regime: RegimeSpec) => number, calibration: Calibration) {
  return (regime: RegimeSpec): PolicyRun => {
    const measure = estimator();
    const calibrations = new Calibrations();
    let lastRawEstimate = 0;
    return {
      decide(request: ReplayRequest): PolicyDecision {
        const factor = applied(calibration, calibrations.factor(MODEL_ID));
        const history = sizeHistory(request.messages, scaled(measure.toolsSize(request.tools), factor), (m) => scaled(measure.sizeOf(m), factor));
        const decision = decisionAfterDropping(history, dropUnits(history, regime));
        lastRawEstimate = decision.estimate / factor;
        return decision;
      },
      observe(report) {
        if (calibration !== 'none') calibrations.observe(MODEL_ID, lastRawEstimate, report.promptTokens);
      },
    };
  };
}

export const noTrimPolicy: Policy = {
  id: 'noTrim',
  label: 'no trimming',
  describe: () => 'sends everything (cost baseline; exceeds the budget)',
  start: cutPolicy(ourEstimator, () => 0, 'none'),
};

export const minimalFitPolicy: Policy = {
  id: 'minimalFit',
  label: 'minimal fit',
  describe: (regime) => `drop oldest units until ≤ B=${regime.budgetTokens} (our estimator, calibrated)`,
  start: cutPolicy(ourEstimator, (history, regime) => {
    const budget = benchBudget(regime);
    return minimalFitDropUnits(history, budget.tokens, budget.maxBytes);
  }, 'exact'),
};

function describeLeading(regime: RegimeSpec): string {
  const g = leadingGeometry(regime.budgetTokens);
  return `H=${g.headroom} S=${g.step} lowWater=${g.lowWaterTokens}`;
}

export const leadingPolicy: Policy = {
  id: 'leading',
  label: 'leading extension',
  describe: (regime) => `${describeLeading(regime)} (chars/4 + 10%)`,
  start: cutPolicy(charsEstimator, (history, regime) => leadingDropUnits(history, leadingGeometry(regime.budgetTokens)), 'none'),
};

export const leadingRuleOurEstimatorPolicy: Policy = {
  id: 'leadingRuleOurEstimator',
  label: 'leading rule, our estimator',
  describe: (regime) => `${describeLeading(regime)} (our estimator, calibrated, factor rounded to 0.05)`,
  start: cutPolicy(ourEstimator, (history, regime) => leadingDropUnits(history, leadingGeometry(regime.budgetTokens)), 'quantized'),
};
