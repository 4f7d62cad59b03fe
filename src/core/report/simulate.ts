/**
 * Replays a conversation's requests under a trim policy, one request at a time: the policy chooses what to
 * send, and the project's exact-prefix cache model (cacheModel/prefixCache.ts, SeenPrefixes) decides what would
 * have been served from cache. Incremental: a replay keeps its policy's state, the cache's prefixes and running
 * sums, so the report's figures cost one step per new request. Runs inside the extension, so blocks are sized
 * by the core's estimator through the trim's own SizeMemo (scaled by each request's observed API-tokens-per-
 * estimate factor) rather than the fake server's o200k counter, which would pull the 2 MB tokenizer in.
 */
import { roundDownToCacheUnit, SeenPrefixes } from '../../cacheModel/prefixCache';
import { messageKey, measureTools, toolsKey, type SizeMemo, type NativeSizeMap } from '../trim/messageSize';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { cacheSums } from './totals';

export interface SimRequest {
  messages: readonly WireMessage[];
  tools: readonly WireTool[];
  /** API tokens per estimated token (from the real request). */
  factor: number;
  /** Native sizes known at this request (core/replay/messageSize.ts): our trim measures messages as the live one did. */
  native?: NativeSizeMap;
  /** The calibration and spread the live trim used on this request (unknown: the replay learns its own). */
  calibration?: number;
  calibrationSpread?: number;
}

/** What a policy sends for a request: the messages (a truncated one is a new message) and how many were left out. */
export interface SimDecision {
  messages: readonly WireMessage[];
  removed: number;
  /** The policy's own word on whether its cut moved (ours: the trim's); otherwise a change in `removed`. */
  cutMoved?: boolean;
}

export interface PolicyRunner {
  decide(request: SimRequest): SimDecision;
  /** What the simulated provider reported for the request just decided. */
  observe?(promptTokens: number, cachedTokens: number): void;
}

export interface SimStep {
  promptTokens: number;
  cachedTokens: number;
  cacheHit: number;
  removed: number;
  cutMoved: boolean;
}

export interface SimSummary {
  requests: number;
  cutMoves: number;
  meanHit: number;
  /** Mean prompt tokens sent: the context kept. */
  meanKept: number;
  coldTokens: number;
  cachedTokens: number;
}

/** One policy's replay of a conversation, advanced a request at a time. */
export class PolicyReplay {
  readonly steps: SimStep[] = [];
  private readonly cache = new SeenPrefixes();
  private previousRemoved = 0;
  private tools?: { of: readonly WireTool[]; key: string; tokens: number };

  constructor(
    private readonly runner: PolicyRunner,
    /** The one size cache (shared with the other replays of the conversation). */
    private readonly memo: SizeMemo,
  ) {}

  step(request: SimRequest): SimStep {
    const decision = this.runner.decide(request);
    const tools = this.toolsBlock(request.tools);
    const blocks = [{ key: tools.key, tokens: tools.tokens }];
    let raw = tools.tokens;
    for (const message of decision.messages) {
      // The text only: the request's factor is API tokens per text estimate (calibrationRawTokens), native items included.
      const tokens = this.memo.sizeOf(message).tokens;
      blocks.push({ key: messageKey(message), tokens });
      raw += tokens;
    }
    const matched = this.cache.observe(blocks);
    const promptTokens = Math.round(raw * request.factor);
    const cachedTokens = Math.min(promptTokens, roundDownToCacheUnit(Math.round(matched * request.factor)));
    const cutMoved = decision.cutMoved ?? (decision.removed > 0 && decision.removed !== this.previousRemoved);
    const step = { promptTokens, cachedTokens, cacheHit: promptTokens > 0 ? cachedTokens / promptTokens : 0, removed: decision.removed, cutMoved };
    this.steps.push(step);
    this.runner.observe?.(promptTokens, cachedTokens);
    this.previousRemoved = decision.removed;
    return step;
  }

  summary(): SimSummary {
    return summarizeSim(this.steps);
  }

  /** The tools block is the first block of every request; measured again only when the tools change. */
  private toolsBlock(tools: readonly WireTool[]): { key: string; tokens: number } {
    if (this.tools?.of !== tools) {
      // The one key scheme (messageSize.ts); `T` keeps a tools key apart from any message's.
      const key = tools.length ? `T${toolsKey(tools)}` : 'T0';
      this.tools = { of: tools, key, tokens: this.tools?.key === key ? this.tools.tokens : measureTools(tools).tokens };
    }
    return this.tools;
  }
}

export function summarizeSim(steps: readonly SimStep[]): SimSummary {
  const sums = cacheSums(steps);
  return {
    requests: sums.requests,
    cutMoves: sums.cutMoves,
    meanHit: sums.meanHit,
    meanKept: sums.requests ? sums.promptTokens / sums.requests : 0,
    coldTokens: sums.coldTokens,
    cachedTokens: sums.cachedTokens,
  };
}

/** A whole replay at once (tests, small recordings); the report advances PolicyReplay itself. */
export function simulate(requests: readonly SimRequest[], runner: PolicyRunner, memo: SizeMemo): SimStep[] {
  const replay = new PolicyReplay(runner, memo);
  for (const request of requests) replay.step(request);
  return replay.steps;
}
