/**
 * Runs one policy over one session: every request is decided by the policy, then observed by a fresh
 * PrefixCacheModel under one session id, and the provider's report goes back to the policy.
 */
import { PrefixCacheModel, type CacheObservation } from '../../cacheModel/prefixCache';
import type { ReplayRequest } from '../../core/replay/replayFile';
import type { PromptBlocks, TokenCount } from '../cache/promptBlocks';
import type { Policy } from '../policies/policy';
import type { PolicyDecision } from '../../core/report/unitCut';
import { reportScale } from '../sessions/regimes';
import { requestAt, type BenchSession } from '../sessions/sessionGenerator';

export const BENCH_SESSION_ID = 'ses_bench';

export interface RequestRecord {
  i: number;
  /** Messages not sent. */
  removed: number;
  /** The policy's own estimate of what it sent. */
  estimate: number;
  /** o200k prompt tokens sent, as the cache model counts them. */
  promptTokens: number;
  /** The same prompt counted as a chat template would (no JSON keys or escapes). */
  textTokens: number;
  /** Request body bytes of what was sent (messages and tools JSON). */
  bytes: number;
  cachedTokens: number;
  cacheHit: number;
  /** The cut differs from the previous request's: the cached prefix broke at the cut. */
  cutMoved: boolean;
}

export type DecisionListener = (i: number, request: ReplayRequest, decision: PolicyDecision) => void;

export interface RunOptions {
  /** How the cache model counts tokens (its own JSON count unless asked otherwise). */
  count?: TokenCount;
  onDecision?: DecisionListener;
}

export function runPolicy(session: BenchSession, policy: Policy, blocks: PromptBlocks, options: RunOptions = {}): RequestRecord[] {
  const count = options.count ?? 'json';
  const run = policy.start(session.regime);
  const cache = new PrefixCacheModel();
  warmCache(cache, session, blocks, count);
  const records: RequestRecord[] = [];
  let previousRemoved = 0;
  for (let i = 0; i < session.requestEnds.length; i++) {
    const request = requestAt(session, i);
    const decision = run.decide(request);
    options.onDecision?.(i, request, decision);
    const sent = decision.messages ?? decision.sentIndices.map((k) => request.messages[k]);
    const observed = scaled(cache.observeMeasured(BENCH_SESSION_ID, blocks.measureRequest(sent, request.tools, count)), reportScale(session.regime, i));
    run.observe(observed);
    const removed = request.messages.length - sent.length;
    records.push({
      i,
      removed,
      estimate: decision.estimate,
      promptTokens: observed.promptTokens,
      textTokens: count === 'text' ? observed.promptTokens : Math.round(blocks.measureRequest(sent, request.tools, 'text').promptTokens * reportScale(session.regime, i)),
      bytes: blocks.requestBytes(sent, request.tools),
      cachedTokens: observed.cachedTokens,
      cacheHit: observed.promptTokens > 0 ? observed.cachedTokens / observed.promptTokens : 0,
      cutMoved: removed !== previousRemoved,
    });
    previousRemoved = removed;
  }
  return records;
}

/** The counts in the endpoint's units (regimes with a drifting tokenizer ratio; 1 otherwise). */
function scaled(observed: CacheObservation, scale: number): CacheObservation {
  if (scale === 1) return observed;
  return { promptTokens: Math.round(observed.promptTokens * scale), cachedTokens: Math.round(observed.cachedTokens * scale), lastMessageTokens: Math.round(observed.lastMessageTokens * scale) };
}

/**
 * The session reached the ceiling from below, where every policy sent everything: the turn before
 * request 0 (the pre-fill without the current user message) is already in the cache.
 */
function warmCache(cache: PrefixCacheModel, session: BenchSession, blocks: PromptBlocks, count: TokenCount): void {
  const previousTurn = session.messages.slice(0, session.requestEnds[0] - 1);
  cache.observeMeasured(BENCH_SESSION_ID, blocks.measureRequest(previousTurn, session.tools, count));
}
