/**
 * What the extension keeps of each conversation in memory for the status bar and the session report: one
 * small record per accounted request (the figures of its `[usage]` and `[history-trim]` lines), plus the
 * latest full history and tools, from which earlier requests are rebuilt for the what-if replay (history
 * only grows at the end, so request k's input is the first `inputCount` messages of the latest one).
 * Bounded: a few conversations, a few hundred requests each.
 */
import type { RequestCost } from '../cost/requestCost';
import type { TrimPlan } from '../request/prepareRequest';
import type { NormalizedUsage } from '../types';
import { BoundedMap } from '../util/boundedMap';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { calibrationRawTokens } from '../trim/historyTrim';
import type { NativeSizeMap } from '../replay/nativeSizes';

export interface RequestRecord {
  /** Milliseconds since the epoch when the usage arrived. */
  at: number;
  modelId: string;
  sessionId: string;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** Share of the prompt served from cache, 0…1. */
  cacheHit: number;
  /** Input tokens the trim aims under (Infinity when the trim is off). */
  budget: number;
  contextWindow: number | undefined;
  /** Output tokens held back from the window. */
  reserve: number;
  maxBytes: number;
  headroom: number;
  /** The cut step (tokens). */
  cutStep: number;
  /** The payload may grow up to here before the cut moves. */
  ceiling: number;
  /** Where the payload lands after a cut move: ceiling − (cut step + headroom). */
  lowWater: number;
  cutMoved: boolean;
  /** Messages of the history not sent. */
  removed: number;
  inputCount: number;
  estTokens: number;
  /** Sent over budget: the `[history-trim] Over budget` ERROR line was written. */
  overCeiling: boolean;
  /** API tokens per raw estimator token on this request (reported prompt / raw estimate). */
  factor: number;
  /** The wire route the request took (chat / responses / messages / gemini), when the engine says. */
  route?: string;
  /** The request's dollars: OpenCode's (`reported`) or from the model's prices (`computed`); absent when unknown. */
  costUsd?: number;
  costSource?: RequestCost['source'];
}

/** Warming requests of a conversation (core/warming), counted apart from the requests the user made. */
export interface WarmingTally {
  requests: number;
  /** Dollars of those with a known cost. */
  costUsd: number;
}

export interface ConversationLog {
  sessionId: string;
  modelId: string;
  records: RequestRecord[];
  /** The latest request's whole history and tools (what-if replays prefixes of it). */
  input: readonly WireMessage[];
  tools: readonly WireTool[];
  /** Read from a request recording (opencode.recordRequests), not observed in this window: the file's name. */
  recordedFile?: string;
  /** What the history's native items add to their messages (by first call id), so the replays measure as the live trim did. */
  native?: NativeSizeMap;
  /** Requests the warming timer sent for this conversation (never in `records`). */
  warming?: WarmingTally;
  /** Dollars of every request with a known cost (also those `records` no longer holds); `computed` when any was computed. */
  spent?: { usd: number; computed: boolean };
}

export const MAX_CONVERSATIONS = 10;
export const MAX_RECORDS_PER_CONVERSATION = 500;

export function toRequestRecord(modelId: string, plan: TrimPlan, usage: NormalizedUsage, at: number, route?: string, cost?: RequestCost): RequestRecord {
  const { budget, geometry, trim } = plan;
  const prompt = Math.max(0, usage.contextTokens);
  const cached = Math.min(prompt, Math.max(0, usage.cachedTokens));
  return {
    at,
    modelId,
    sessionId: plan.sessionId,
    promptTokens: prompt,
    cachedTokens: cached,
    completionTokens: Math.max(0, usage.completionTokens),
    cacheHit: prompt > 0 ? cached / prompt : 0,
    budget: budget.tokens,
    contextWindow: budget.contextWindow,
    reserve: budget.reserve,
    maxBytes: budget.maxBytes,
    headroom: geometry.headroom,
    cutStep: geometry.cutStep,
    ceiling: geometry.ceiling,
    lowWater: Math.max(0, geometry.ceiling - geometry.grid),
    cutMoved: trim.removed > 0 && plan.cutMoved,
    removed: trim.removed,
    inputCount: plan.input.length,
    estTokens: trim.estTokens,
    overCeiling: trim.overCeiling,
    factor: calibrationRawTokens(trim) > 0 && prompt > 0 ? prompt / calibrationRawTokens(trim) : 1,
    ...(route ? { route } : {}),
    ...(cost ? { costUsd: cost.usd, costSource: cost.source } : {}),
  };
}

export class RequestLog {
  private readonly conversations = new BoundedMap<string, ConversationLog>(MAX_CONVERSATIONS);
  private last: RequestRecord | undefined;

  /** `route`: the request's wire route, once PreparedRequest carries one (composeExtension passes it). */
  add(modelId: string, plan: TrimPlan, usage: NormalizedUsage, at = Date.now(), route?: string, cost?: RequestCost): RequestRecord {
    const record = toRequestRecord(modelId, plan, usage, at, route, cost);
    const log = this.conversations.get(plan.sessionId) ?? { sessionId: plan.sessionId, modelId, records: [], input: [], tools: [] };
    log.modelId = modelId;
    log.records.push(record);
    if (cost) log.spent = { usd: (log.spent?.usd ?? 0) + cost.usd, computed: (log.spent?.computed ?? false) || cost.source === 'computed' };
    if (log.records.length > MAX_RECORDS_PER_CONVERSATION) log.records.splice(0, log.records.length - MAX_RECORDS_PER_CONVERSATION);
    log.input = plan.input;
    log.tools = plan.tools;
    const native = Object.entries(plan.trim.native ?? {});
    if (native.length > 0) log.native = new Map(native);
    this.conversations.set(plan.sessionId, log);
    this.last = record;
    return record;
  }

  /** A warming request of a known conversation: counted apart, its cost added when known. */
  addWarming(sessionId: string, cost?: RequestCost): void {
    const log = this.conversations.peek(sessionId);
    if (!log) return;
    const tally = log.warming ?? { requests: 0, costUsd: 0 };
    log.warming = { requests: tally.requests + 1, costUsd: tally.costUsd + (cost?.usd ?? 0) };
  }

  /** The most recent request of any conversation. */
  latest(): RequestRecord | undefined {
    return this.last;
  }

  /** The request before `record` in the same conversation, if any. */
  previous(record: RequestRecord): RequestRecord | undefined {
    const records = this.conversations.peek(record.sessionId)?.records ?? [];
    const index = records.indexOf(record);
    return index > 0 ? records[index - 1] : undefined;
  }

  get(sessionId: string): ConversationLog | undefined {
    return this.conversations.peek(sessionId);
  }

  /** Most recently used first. */
  list(): ConversationLog[] {
    return [...this.conversations.entriesInOrder()].map(([, log]) => log).reverse();
  }
}
