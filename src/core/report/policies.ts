/**
 * The trim policies the report replays: ours (exactly the extension's planTrim + accountUsage, the path
 * the `replay` CLI and the benchmark use), no trimming, and minimal fit (the benchmark's rule: drop the
 * oldest units until the payload fits, not one more).
 */
import type { HistoryTrimSettings, Settings } from '../config/settings';
import { repairedHistory } from '../convert/convertRequest';
import { accountUsage } from '../request/accountUsage';
import { planTrim, type TrimPlan } from '../request/prepareRequest';
import { Calibrations } from '../trim/calibration';
import { ConversationStates } from '../trim/conversationState';
import { measureMessage, SizeMemo, type MessageSize } from '../trim/messageSize';
import { normalizeUsage } from '../usage/normalizeUsage';
import { minimalFitDropUnits } from './minimalFitCut';
import { decisionAfterDropping, sizeHistory } from './unitCut';
import type { Logger } from '../log';
import type { ModelLimits } from '../types';
import type { RequestRecord } from './requestLog';
import type { PolicyRunner, SimRequest } from './simulate';

const MODEL_ID = 'report-model';
const quiet: Logger = { info() {}, warn() {}, error() {}, debug() {} };

export type TrimOverrides = Partial<Pick<HistoryTrimSettings, 'headroomRatio' | 'headroomMinTokens' | 'headroomMaxTokens' | 'cutStepTokens'>>;

/**
 * The user's settings pinned to the budget the conversation actually had (so a later model-list change
 * does not change the replay), with the chosen trim values on top.
 */
export function replaySettings(settings: Settings, record: RequestRecord, overrides: TrimOverrides = {}): Settings {
  const pinned = Number.isFinite(record.budget)
    ? { budgetOverrideTokens: record.budget, maxRequestBytes: Number.isFinite(record.maxBytes) ? record.maxBytes : 0, reservedOutputTokens: record.reserve }
    : {};
  return { ...settings, ...pinned, historyTrim: { ...settings.historyTrim, ...overrides } };
}

/** The model limits that give back the recorded budget: its window, and the reserve as its max output. */
export function replayLimits(record: RequestRecord): ModelLimits {
  return { contextWindow: record.contextWindow, maxOutputTokens: record.reserve > 0 ? record.reserve : undefined };
}

/** `onPlan` sees each request's plan (a recorded conversation builds its records from them). */
export function oursRunner(settings: Settings, limits: ModelLimits, onPlan?: (plan: TrimPlan) => void): PolicyRunner {
  const state = { log: quiet, calibrations: new Calibrations(), states: new ConversationStates() };
  const memo = new SizeMemo();
  let plan: TrimPlan | undefined;
  return {
    decide(request: SimRequest) {
      plan = planTrim(repairedHistory(request.messages, quiet), [...request.tools], {
        settings, limits, calibration: state.calibrations.factor(MODEL_ID), calibrationSpread: state.calibrations.spread(MODEL_ID), memo, states: state.states, log: quiet,
        recordedNative: request.native,
      });
      onPlan?.(plan);
      // A truncated oversized message is not the same object; the cache model then sees it as new.
      return plan.trim.sentIndices;
    },
    observe(promptTokens, cachedTokens) {
      const usage = normalizeUsage({ prompt_tokens: promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: cachedTokens } });
      if (usage && plan) accountUsage(state, MODEL_ID, plan, usage);
    },
  };
}

export function noTrimRunner(): PolicyRunner {
  return { decide: (request) => request.messages.map((_, i) => i) };
}

/** Minimal fit against the recorded budget, with sizes scaled by the request's factor. */
export function minimalFitRunner(budget: number, maxBytes: number): PolicyRunner {
  return {
    decide(request) {
      if (!Number.isFinite(budget)) return request.messages.map((_, i) => i);
      const scale = (size: MessageSize): MessageSize => ({ tokens: size.tokens * request.factor, bytes: size.bytes });
      const tools = request.tools.length ? scale(measureMessage({ role: 'system', content: JSON.stringify(request.tools) })) : { tokens: 0, bytes: 0 };
      const history = sizeHistory(request.messages, tools, (m) => scale(measureMessage(m)));
      return decisionAfterDropping(history, minimalFitDropUnits(history, budget, maxBytes)).sentIndices;
    },
  };
}
