/**
 * Replays a session through exactly the extension's trim path (planTrim, with the engine's conversation
 * identity) and accounting (accountUsage), with the prefix-cache model (src/cacheModel, shared with the fake
 * server) standing in for the provider's usage.
 * Used by `npm run replay` and by the benchmark.
 */
import { performance } from 'perf_hooks';
import type { Settings } from '../core/config/settings';
import { MemoryLogger } from '../core/log';
import { accountUsage } from '../core/request/accountUsage';
import { planTrim } from '../core/request/prepareRequest';
import { SessionIds } from '../core/session/sessionId';
import { Calibrations } from '../core/trim/calibration';
import { ConversationStates } from '../core/trim/conversationState';
import { SizeMemo } from '../core/trim/messageSize';
import type { ModelLimits } from '../core/types';
import { normalizeUsage } from '../core/usage/normalizeUsage';
import { PrefixCacheModel } from '../cacheModel/prefixCache';
import type { ReplayRequest } from './replayFile';

export interface ReplayOptions {
  settings: Settings;
  limits: ModelLimits;
  modelId?: string;
  /** Called with every log line as it is written (the CLI prints them). */
  onLog?: (level: string, message: string) => void;
  /** A size memo that has already measured other requests (tests: a warm memo must give the same cuts). */
  memo?: SizeMemo;
}

export interface ReplayStep {
  i: number;
  removed: number;
  sentIndices: number[];
  estTokens: number;
  bytes: number;
  budget: number;
  cutMoved: boolean;
  overBudget: boolean;
  promptTokens: number;
  cachedTokens: number;
  cacheHit: number;
  trimMs: number;
}

export interface ReplaySummary {
  requests: number;
  trims: number;
  cutMoves: number;
  meanCacheHit: number;
  meanSentTokens: number;
  overBudget: number;
}

export function replaySession(requests: Iterable<ReplayRequest>, options: ReplayOptions): { steps: ReplayStep[]; summary: ReplaySummary } {
  const modelId = options.modelId ?? 'replay-model';
  const log = new MemoryLogger();
  const forward = (level: 'info' | 'warn' | 'error' | 'debug') => (message: string) => {
    log[level](message);
    options.onLog?.(level, message);
  };
  const logger = { info: forward('info'), warn: forward('warn'), error: forward('error'), debug: forward('debug') };
  const state = { log: logger, calibrations: new Calibrations(), states: new ConversationStates() };
  const memo = options.memo ?? new SizeMemo();
  // The engine's conversation identity: a file may hold several conversations with the same opening.
  const sessions = new SessionIds();
  const cache = new PrefixCacheModel();
  const steps: ReplayStep[] = [];
  let i = 0;
  for (const request of requests) {
    const started = performance.now();
    const plan = planTrim(request.messages, request.tools, {
      settings: options.settings,
      limits: options.limits,
      calibration: state.calibrations.factor(modelId),
      calibrationSpread: state.calibrations.spread(modelId),
      memo,
      states: state.states,
      log: logger,
      sessions,
    });
    const trimMs = performance.now() - started;
    const observed = cache.observe(plan.sessionId, { messages: plan.trim.messages, tools: request.tools });
    const usage = normalizeUsage({ prompt_tokens: observed.promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: observed.cachedTokens } });
    if (usage) accountUsage(state, modelId, plan, usage);
    steps.push({
      i: i++,
      removed: plan.trim.removed,
      sentIndices: plan.trim.sentIndices,
      estTokens: plan.trim.estTokens,
      bytes: plan.trim.bytes,
      budget: plan.budget.tokens,
      cutMoved: plan.trim.removed > 0 && plan.cutMoved,
      overBudget: plan.trim.overBudget,
      promptTokens: observed.promptTokens,
      cachedTokens: observed.cachedTokens,
      cacheHit: observed.promptTokens > 0 ? observed.cachedTokens / observed.promptTokens : 0,
      trimMs,
    });
  }
  return { steps, summary: summarize(steps) };
}

export function summarize(steps: readonly ReplayStep[]): ReplaySummary {
  const n = Math.max(1, steps.length);
  return {
    requests: steps.length,
    trims: steps.filter((s) => s.removed > 0).length,
    cutMoves: steps.filter((s) => s.cutMoved).length,
    meanCacheHit: steps.reduce((t, s) => t + s.cacheHit, 0) / n,
    meanSentTokens: steps.reduce((t, s) => t + s.promptTokens, 0) / n,
    overBudget: steps.filter((s) => s.overBudget).length,
  };
}
