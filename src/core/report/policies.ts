/**
 * The trim policies the report replays: ours (exactly the extension's planTrim + accountUsage, the path
 * the `replay` CLI and the benchmark use, with the calibration the live request used when known), no
 * trimming, and minimal fit (drop the oldest units until the payload fits, not one more). Every size comes
 * from the one SizeMemo the conversation's replays share.
 */
import type { HistoryTrimSettings, Settings } from '../config/settings';
import { repairedHistory } from '../convert/convertRequest';
import { accountUsage } from '../request/accountUsage';
import { withRecordedSizes } from '../replay/recordedSizes';
import { measureTools, type MessageSize, type SizeMemo, recordedNativeOf } from '../trim/messageSize';
import { minimalFitDropUnits } from './minimalFitCut';
import { decisionAfterDropping, sizeHistory } from './unitCut';
import type { Logger } from '../log';
import type { ModelLimits } from '../types';
import type { RequestRecord } from './requestLog';
import type { PolicyRunner, SimDecision, SimRequest } from './simulate';
import { normalizeUsage } from '../routes/chat/chatChunk';
import { planTrim, type TrimPlan } from '../trim/planTrim';
import { Calibrations, ConversationStates } from '../trim/trimState';

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

/** The model limits that give back the recorded budget: its window and input limit, and the reserve as its max output. */
export function replayLimits(record: { contextWindow?: number; inputLimit?: number; reserve: number }): ModelLimits {
  const limits: ModelLimits = { contextWindow: record.contextWindow, maxOutputTokens: record.reserve > 0 ? record.reserve : undefined };
  if (record.inputLimit !== undefined) limits.inputLimit = record.inputLimit;
  return limits;
}

/**
 * `onPlan` sees each request's plan (a recorded conversation builds its records from them). Each request is
 * trimmed with the calibration its live run used (SimRequest.calibration), else what the replay learned: the
 * persisted calibration the live trim started from is not the replay's fresh one.
 */
export function oursRunner(settings: Settings, limits: ModelLimits, memo: SizeMemo, onPlan?: (plan: TrimPlan) => void): PolicyRunner {
  const state = { log: quiet, calibrations: new Calibrations(), states: new ConversationStates() };
  let plan: TrimPlan | undefined;
  return {
    decide(request: SimRequest): SimDecision {
      plan = planTrim(repairedHistory(request.messages, quiet), [...request.tools], {
        settings,
        limits,
        calibration: request.calibration ?? state.calibrations.factor(MODEL_ID),
        calibrationSpread: request.calibrationSpread ?? state.calibrations.spread(MODEL_ID),
        memo: withRecordedSizes(memo, request.native),
        states: state.states,
        log: quiet,
      });
      onPlan?.(plan);
      // A truncated oversized message is a new message: its own cache key, stable while its cut is.
      return { messages: plan.trim.messages, removed: plan.trim.removed, cutMoved: (plan.trim.removed > 0 || plan.pruned.results > 0) && plan.cutMoved };
    },
    observe(promptTokens, cachedTokens) {
      const usage = normalizeUsage({ prompt_tokens: promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: cachedTokens } });
      if (usage && plan) accountUsage(state, MODEL_ID, plan, usage);
    },
  };
}

export function noTrimRunner(): PolicyRunner {
  return { decide: (request) => ({ messages: request.messages, removed: 0 }) };
}

/** Minimal fit against the recorded budget, with sizes scaled by the request's factor. */
export function minimalFitRunner(budget: number, maxBytes: number, memo: SizeMemo): PolicyRunner {
  let tools: { of: readonly unknown[]; size: MessageSize } | undefined;
  return {
    decide(request) {
      if (!Number.isFinite(budget)) return { messages: request.messages, removed: 0 };
      const scale = (size: MessageSize): MessageSize => ({ tokens: size.tokens * request.factor, bytes: size.bytes });
      if (tools?.of !== request.tools) tools = { of: request.tools, size: measureTools(request.tools) };
      const nativeOf = request.native && request.native.size > 0 ? recordedNativeOf(request.native) : undefined;
      const sizeOf = (m: SimRequest['messages'][number]): MessageSize => {
        const own = memo.sizeOf(m);
        const native = nativeOf?.(m);
        return scale(native ? { tokens: own.tokens + native.tokens, bytes: own.bytes + native.bytes } : own);
      };
      const history = sizeHistory(request.messages, scale(tools.size), sizeOf);
      const sent = decisionAfterDropping(history, minimalFitDropUnits(history, budget, maxBytes)).sentIndices;
      return { messages: sent.map((i) => request.messages[i]), removed: request.messages.length - sent.length };
    },
  };
}
