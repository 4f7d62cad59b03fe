/**
 * After every answer: the [usage] line, calibration of the estimator against the tokens the API
 * reported, and the overflow sensor, which makes the conversation's next request cut one
 * grid move earlier. Shared by the engine and the replay tool, so both log the same lines.
 */
import { requestCost, type RequestCost, type ModelPrices } from '../cost/requestCost';
import type { Logger } from '../log';
import { overflowLine, isOverflowing, usableOf } from '../overflow/overflow';
import { calibrationLine, type Calibrations } from '../trim/calibration';
import { calibrationRawTokens } from '../trim/historyTrim';
import type { ConversationStates } from '../trim/conversationState';
import type { NormalizedUsage } from '../types';
import { formatUsageLine } from '../usage/usageLine';
import type { TrimPlan } from './prepareRequest';
import type { RequestPurpose } from './purpose';

export interface AccountingState {
  log: Logger;
  calibrations: Calibrations;
  states: ConversationStates;
  /** The model's prices, for a cost OpenCode did not report (absent: only reported costs are shown). */
  prices?: (modelId: string) => ModelPrices | undefined;
}

/** What the stream said about the request's cost, and what the computed cost must know of the body sent. */
export interface CostReport {
  /** OpenCode's cost frame, USD. */
  reportedUsd?: number;
  /** The body asked Anthropic for 1-hour cache writes (routes/cacheLifetime.ts). */
  longCacheWrites?: boolean;
}

export interface AccountingResult {
  calibrated: boolean;
  overflow: boolean;
  cost?: RequestCost;
}

/** `learn: false`: the usage record contradicted itself (an anomaly), so calibration does not learn from it. */
export function accountUsage(state: AccountingState, modelId: string, plan: TrimPlan, usage: NormalizedUsage, options: CostReport & { learn?: boolean; purpose?: RequestPurpose } = {}): AccountingResult {
  const cost = requestCost({ usage, reportedUsd: options.reportedUsd, prices: state.prices?.(modelId), longCacheWrites: options.longCacheWrites });
  state.log.info(formatUsageLine(usage, cost, options.purpose));
  const estimated = calibrationRawTokens(plan.trim);
  const update = options.learn === false ? undefined : state.calibrations.observe(modelId, estimated, usage.contextTokens);
  if (update) state.log.info(calibrationLine(modelId, usage.contextTokens, estimated, update));
  const { contextWindow, reserve, inputLimit } = plan.budget;
  const overflow = !!contextWindow && isOverflowing(usage, contextWindow, reserve, inputLimit);
  if (overflow && contextWindow) {
    state.log.warn(overflowLine(usage.contextTokens, usableOf(contextWindow, reserve, inputLimit), contextWindow, reserve));
    state.states.addExtraGridMove(plan.sessionId);
  }
  return { calibrated: !!update, overflow, cost };
}
