/**
 * Replays a recorded conversation under another trim policy: the same requests (prefixes of the latest
 * history), each policy choosing what to send, and an exact-prefix cache model deciding what would have been
 * served from cache. Runs inside the extension, so it uses the core's estimator (scaled by each request's
 * observed API-tokens-per-estimate factor) rather than the fake server's o200k counter, which would pull the
 * 2 MB tokenizer into the bundle. Simulated figures are compared with simulated figures; the report shows
 * the observed ones separately.
 */
import { measureMessage } from '../trim/messageSize';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import type { ConversationLog } from './requestLog';
import { cacheSums } from './totals';
import type { NativeSizeMap } from '../replay/nativeSizes';

export interface SimRequest {
  messages: readonly WireMessage[];
  tools: readonly WireTool[];
  /** API tokens per estimated token (from the real request). */
  factor: number;
  /** A recording's native sizes (core/replay/nativeSizes.ts): our trim measures messages as the live one did. */
  native?: NativeSizeMap;
}

export interface PolicyRunner {
  /** Indices of `request.messages` to send, ascending. */
  decide(request: SimRequest): number[];
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

/** The requests of a conversation rebuilt from its latest history. */
export function conversationRequests(log: ConversationLog): SimRequest[] {
  return log.records.map((r) => ({
    messages: log.input.slice(0, Math.min(r.inputCount, log.input.length)),
    tools: log.tools,
    factor: r.factor > 0 ? r.factor : 1,
    native: log.native,
  }));
}

const sizes = new WeakMap<object, number>();

function tokensOf(message: WireMessage): number {
  let tokens = sizes.get(message);
  if (tokens === undefined) {
    tokens = measureMessage(message).tokens;
    sizes.set(message, tokens);
  }
  return tokens;
}

function toolsTokens(tools: readonly WireTool[]): number {
  return tools.length ? measureMessage({ role: 'system', content: JSON.stringify(tools) }).tokens : 0;
}

/** Exact-prefix cache: the leading sent messages that are the very same as the previous request's. */
export function simulate(requests: readonly SimRequest[], runner: PolicyRunner): SimStep[] {
  const steps: SimStep[] = [];
  let previous: readonly WireMessage[] = [];
  let previousRemoved = 0;
  let toolsSize = -1;
  let toolsRef: readonly WireTool[] | undefined;
  for (const request of requests) {
    if (request.tools !== toolsRef) {
      toolsRef = request.tools;
      toolsSize = toolsTokens(request.tools);
    }
    const sent = runner.decide(request).map((i) => request.messages[i]);
    let raw = toolsSize;
    let cachedRaw = previous.length > 0 || steps.length > 0 ? toolsSize : 0;
    let prefix = steps.length > 0;
    sent.forEach((message, i) => {
      raw += tokensOf(message);
      prefix = prefix && previous[i] === message;
      if (prefix) cachedRaw += tokensOf(message);
    });
    const promptTokens = Math.round(raw * request.factor);
    const cachedTokens = Math.min(promptTokens, Math.round(cachedRaw * request.factor));
    const removed = request.messages.length - sent.length;
    steps.push({ promptTokens, cachedTokens, cacheHit: promptTokens > 0 ? cachedTokens / promptTokens : 0, removed, cutMoved: removed > 0 && removed !== previousRemoved });
    runner.observe?.(promptTokens, cachedTokens);
    previous = sent;
    previousRemoved = removed;
  }
  return steps;
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
