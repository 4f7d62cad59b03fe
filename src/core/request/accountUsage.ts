/**
 * After every answer: the [usage] line, calibration of the estimator against the tokens the API
 * reported, and the overflow sensor, which makes the conversation's next request cut one
 * grid move earlier. Shared by the engine and the replay tool, so both log the same lines.
 *
 * And what the engine learns of a model's limits from its endpoint (models/learnedLimits.ts): from a "too long"
 * refusal — the window it names, else (no number) a ceiling below the refused prompt — and from every answered prompt
 * (the largest known to fit, which may revise that ceiling). Each change is saved and told to VS Code once; a refusal
 * that teaches nothing new cuts one grid move more, as before.
 */
import { requestCost, type RequestCost, type ModelPrices } from '../cost/requestCost';
import type { Logger } from '../log';
import { calibrationRawTokens } from '../trim/historyTrim';
import type { NormalizedUsage } from '../types';
import type { RequestPurpose } from './purpose';
import { formatUsageLine } from '../usage/usage';
import { parseContextLimit } from '../models/contextRefusal';
import type { LearnedLimits } from '../models/learnedLimits';
import { outsideText } from '../util/excerpt';
import { type TrimPlan } from '../trim/planTrim';
import { overflowLine, isOverflowing, usableOf } from '../trim/budget';
import { calibrationLine, type Calibrations, type ConversationStates } from '../trim/trimState';

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
  /** The body asked Anthropic for 1-hour cache writes (routes/requestParts.ts). */
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

export interface LimitLearning {
  learned: LearnedLimits;
  states: ConversationStates;
  log: Logger;
  /** Persists the learned limits. */
  save(): void;
  /** What VS Code is told about the model changed (EngineDeps.onLimitsChanged). */
  changed(): void;
}

/** After a refusal of `refused` as too long; `guessed`: the re-trim aims under a guess, not a size known to fit. */
export function learnTooLong(ctx: LimitLearning, modelId: string, message: string, refused: Pick<TrimPlan, 'sessionId' | 'trim'>): { guessed: boolean } {
  const namedWindow = parseContextLimit(message);
  const refusal = namedWindow === undefined ? ctx.learned.refuse(modelId, refused.trim.estTokens) : undefined;
  const learned = namedWindow !== undefined ? ctx.learned.learnWindow(modelId, namedWindow) : refusal !== undefined;
  if (learned) {
    ctx.save();
    ctx.changed();
  } else ctx.states.addExtraGridMove(refused.sessionId);
  const taught = namedWindow
    ? ` (limit ${namedWindow} tokens, now remembered)`
    : refusal
      ? ` (no limit named: below ~${refused.trim.estTokens} tokens; now trimming under ${refusal.ceiling}${refusal.guess ? ', a guess' : ', known to fit'}, remembered)`
      : '';
  ctx.log.warn(`[history-trim] ${outsideText(modelId)} rejected the request as too long${taught}; trimming again and retrying.`);
  return { guessed: refusal?.guess === true };
}

/** After an answered prompt of `promptTokens` (reported): the largest known to fit, maybe a revised ceiling. */
export function learnAnswered(ctx: LimitLearning, modelId: string, promptTokens: number): void {
  const moved = ctx.learned.accept(modelId, promptTokens);
  if (!moved) return;
  ctx.save();
  if (moved === 'ceiling') ctx.changed();
}
