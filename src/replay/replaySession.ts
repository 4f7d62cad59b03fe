/**
 * Replays a session through exactly the extension's trim path (planTrim, with the engine's conversation
 * identity) and accounting (accountUsage), with the route's cache model (src/cacheModel, shared with the fake
 * server; routeUsage.ts) standing in for the provider's usage.
 * Used by `npm run replay` and by the benchmark.
 */
import { performance } from 'perf_hooks';
import type { Settings } from '../core/config/settings';
import { accountUsage } from '../core/request/accountUsage';
import { repairedHistory } from '../core/convert/convertRequest';
import { withRecordedSizes } from '../core/replay/recordedSizes';
import { SessionIds } from '../core/session/sessionId';
import { SizeMemo } from '../core/trim/messageSize';
import type { ModelLimits } from '../core/types';
import type { RouteId } from '../core/routeId';
import type { ReplayRequest } from '../core/replay/replayFile';
import { RouteCaches } from './routeUsage';
import { planTrim } from '../core/trim/planTrim';
import { Calibrations, ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from '../test/support/memoryLogger';

export interface ReplayOptions {
  settings: Settings;
  limits: ModelLimits;
  modelId?: string;
  /** Called with every log line as it is written (the CLI prints them). */
  onLog?: (level: string, message: string) => void;
  /** A size memo that has already measured other requests (tests: a warm memo must give the same cuts). */
  memo?: SizeMemo;
  /**
   * The route whose provider cache stands in for usage (the cut is the same on every route). Default: the route
   * each recorded request was sent on (its `sent` field), else chat.
   */
  api?: RouteId;
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
  /** Tokens billed as cache writes (Messages only: Anthropic's cache_creation_input_tokens). */
  cacheWriteTokens: number;
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
  const sessionIds = new SessionIds();
  const cache = new RouteCaches();
  const steps: ReplayStep[] = [];
  let i = 0;
  for (const request of requests) {
    const started = performance.now();
    const plan = planTrim(repairedHistory(request.messages, logger), request.tools, {
      settings: options.settings,
      limits: options.limits,
      calibration: state.calibrations.factor(modelId),
      calibrationSpread: state.calibrations.spread(modelId),
      memo: withRecordedSizes(memo, request.native),
      states: state.states,
      log: logger,
      sessionIds,
    });
    const trimMs = performance.now() - started;
    const usage = cache.observe(plan, modelId, options.api ?? request.sent?.route ?? 'chat');
    if (usage) accountUsage(state, modelId, plan, usage);
    const promptTokens = usage?.contextTokens ?? 0;
    const cachedTokens = usage?.cachedTokens ?? 0;
    steps.push({
      i: i++,
      removed: plan.trim.removed,
      sentIndices: plan.trim.sentIndices,
      estTokens: plan.trim.estTokens,
      bytes: plan.trim.bytes,
      budget: plan.budget.tokens,
      cutMoved: (plan.trim.removed > 0 || plan.pruned.results > 0) && plan.cutMoved,
      overBudget: plan.trim.overCeiling,
      promptTokens,
      cachedTokens,
      cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
      cacheHit: promptTokens > 0 ? cachedTokens / promptTokens : 0,
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
