/**
 * What the extension keeps of each conversation in memory for the status bar and the session report: one
 * small record per accounted request (the figures of its `[usage]` and `[history-trim]` lines) and, beside
 * it, the request as the replays need it (its history and tools as sent, interned: MessageInterner below; its
 * factor, native sizes and the calibration its trim used). Adding a request is work for that request only:
 * no figure is computed here (reportFigures.ts does, while a report is open). Bounded: a few conversations,
 * a few hundred requests each.
 */
import type { RequestCost } from '../cost/requestCost';
import type { NormalizedUsage } from '../types';
import { BoundedMap } from '../util/boundedMap';
import { calibrationRawTokens } from '../trim/historyTrim';
import { firstUserWords } from './conversationName';
import type { SimRequest } from './simulate';
import { type TrimPlan } from '../trim/planTrim';
import { messageKey, toolsKey } from '../trim/messageSize';
import type { WireMessage, WireTool } from '../wire/wireTypes';

/**
 * One accounted request, as plain numbers. New per-request figures (a `cost`, once prices are known) are a field
 * here, filled in toRequestRecord, and summed in totals.ts; the replays never need them.
 */
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
  /** The model's input limit when below what the window leaves (the overflow sensor's usable is the smaller). */
  inputLimit?: number;
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
  /** Request by request (parallel to `records`): what the replays re-run. */
  requests: SimRequest[];
  /** Requests ever added (records and requests keep the newest MAX_RECORDS_PER_CONVERSATION). */
  added: number;
  /** Read from a request recording (opencode.recordRequests), not observed in this window: the file's name. */
  recordedFile?: string;
  /** Requests the warming timer sent for this conversation (never in `records`). */
  warming?: WarmingTally;
  /** Requests that described this conversation's images for a text-only model (never in `records`; request/describeImages.ts). */
  describing?: WarmingTally;
  /** Dollars of every request with a known cost (also those `records` no longer holds); `computed` when any was computed. */
  spent?: { usd: number; computed: boolean };
  /** The user's first words, once a request had any (conversationTitle). */
  name?: string;
}

/**
 * The conversation's name: the user's first words (conversationName.ts), never an attachment's or the system's
 * text; found once, on the first request that has any.
 */
export function conversationTitle(log: ConversationLog): string {
  if (log.name) return log.name;
  for (const request of log.requests) {
    const words = firstUserWords(request.messages);
    if (words) return (log.name = words);
  }
  return log.sessionId.slice(0, 12);
}

/** Requests of one conversation accounted since the list last heard of it (conversationIndex.ts). */
export interface AddedBatch {
  log: ConversationLog;
  requests: number;
}

/** The report's list hears of new requests this long after them, in one batch: nothing of it on the request path. */
export const LIST_DELAY_MS = 1_000;

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
    ...(budget.inputLimit !== undefined ? { inputLimit: budget.inputLimit } : {}),
    reserve: budget.reserve,
    maxBytes: budget.maxBytes,
    headroom: geometry.headroom,
    cutStep: geometry.cutStep,
    ceiling: geometry.ceiling,
    lowWater: Math.max(0, geometry.ceiling - geometry.grid),
    cutMoved: (trim.removed > 0 || plan.pruned.results > 0) && plan.cutMoved,
    removed: trim.removed,
    inputCount: plan.input.length,
    estTokens: trim.estTokens,
    overCeiling: trim.overCeiling,
    factor: factorOf(plan, prompt),
    ...(route ? { route } : {}),
    ...(cost ? { costUsd: cost.usd, costSource: cost.source } : {}),
  };
}

const factorOf = (plan: TrimPlan, prompt: number): number => (calibrationRawTokens(plan.trim) > 0 && prompt > 0 ? prompt / calibrationRawTokens(plan.trim) : 1);

interface Kept {
  log: ConversationLog;
  interner: MessageInterner;
  /** Native sizes seen so far (by first call id); a request shares the previous one's map while nothing is new. */
  native?: Map<string, readonly [number, number]>;
}

export class RequestLog {
  private readonly conversations = new BoundedMap<string, Kept>(MAX_CONVERSATIONS);
  private last: RequestRecord | undefined;

  /** Conversations with requests the list has not heard of yet (only with `onAdded`). */
  private readonly unheard = new Map<string, AddedBatch>();
  private listTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `onAdded`: the requests accounted since the last call, LIST_DELAY_MS after the first of them (or at
   * flushAdded): the report's list (conversationIndex.ts) follows the conversations off the request path.
   */
  constructor(private readonly onAdded?: (batch: AddedBatch[]) => void) {}

  /** Hands the pending batch to `onAdded` now (the list is about to be shown or saved). */
  flushAdded(): void {
    if (this.listTimer) clearTimeout(this.listTimer);
    this.listTimer = undefined;
    if (this.unheard.size === 0 || !this.onAdded) return;
    const batch = [...this.unheard.values()];
    this.unheard.clear();
    this.onAdded(batch);
  }

  /** `route`: the request's wire route, once PreparedRequest carries one (composeExtension passes it). */
  add(modelId: string, plan: TrimPlan, usage: NormalizedUsage, at = Date.now(), route?: string, cost?: RequestCost): RequestRecord {
    const record = toRequestRecord(modelId, plan, usage, at, route, cost);
    const kept = this.conversations.get(plan.sessionId) ?? { log: { sessionId: plan.sessionId, modelId, records: [], requests: [], added: 0 }, interner: new MessageInterner() };
    const { log, interner } = kept;
    log.modelId = modelId;
    const fresh = Object.entries(plan.trim.native ?? {}).filter(([key, size]) => kept.native?.get(key)?.join() !== size.join());
    if (fresh.length > 0) kept.native = new Map([...(kept.native ?? []), ...fresh]);
    log.records.push(record);
    if (cost) log.spent = { usd: (log.spent?.usd ?? 0) + cost.usd, computed: (log.spent?.computed ?? false) || cost.source === 'computed' };
    log.requests.push({
      messages: interner.history(plan.input),
      tools: interner.toolsOf(plan.tools),
      factor: record.factor,
      native: kept.native,
      calibration: plan.calibration,
      calibrationSpread: plan.calibrationSpread,
    });
    log.added++;
    if (log.records.length > MAX_RECORDS_PER_CONVERSATION) {
      log.records.splice(0, log.records.length - MAX_RECORDS_PER_CONVERSATION);
      log.requests.splice(0, log.requests.length - MAX_RECORDS_PER_CONVERSATION);
    }
    this.conversations.set(plan.sessionId, kept);
    this.last = record;
    if (this.onAdded) {
      this.unheard.set(plan.sessionId, { log, requests: (this.unheard.get(plan.sessionId)?.requests ?? 0) + 1 });
      if (!this.listTimer) {
        this.listTimer = setTimeout(() => this.flushAdded(), LIST_DELAY_MS);
        this.listTimer.unref?.();
      }
    }
    return record;
  }

  /** A warming request of a known conversation: counted apart, its cost added when known. */
  addWarming(sessionId: string, cost?: RequestCost): void {
    const log = this.conversations.peek(sessionId)?.log;
    if (!log) return;
    const tally = log.warming ?? { requests: 0, costUsd: 0 };
    log.warming = { requests: tally.requests + 1, costUsd: tally.costUsd + (cost?.usd ?? 0) };
  }

  /** The describing requests one request of a known conversation caused: counted apart, like warming. */
  addDescribing(sessionId: string, tally: WarmingTally): void {
    const log = this.conversations.peek(sessionId)?.log;
    if (!log) return;
    const sum = log.describing ?? { requests: 0, costUsd: 0 };
    log.describing = { requests: sum.requests + tally.requests, costUsd: sum.costUsd + tally.costUsd };
  }

  /** The most recent request of any conversation. */
  latest(): RequestRecord | undefined {
    return this.last;
  }

  /** The request before `record` in the same conversation, if any. */
  previous(record: RequestRecord): RequestRecord | undefined {
    const records = this.conversations.peek(record.sessionId)?.log.records ?? [];
    const index = records.indexOf(record);
    return index > 0 ? records[index - 1] : undefined;
  }

  get(sessionId: string): ConversationLog | undefined {
    return this.conversations.peek(sessionId)?.log;
  }

  /** Most recently used first. */
  list(): ConversationLog[] {
    return [...this.conversations.entriesInOrder()].map(([, kept]) => kept.log).reverse();
  }
}

/**
 * Keeps each request of a conversation as it was, cheaply: VS Code hands over fresh objects every turn, so a
 * message already seen (same messageKey, the SizeMemo's exact key) is replaced by the object kept the first time.
 * Each request then holds only references: memory grows with what is new, not with the history re-sent. A
 * history rewritten between turns (an earlier turn re-sent differently) keeps its new messages, so the
 * replays see what each request really sent, not a slice of the latest history.
 */
export class MessageInterner {
  private readonly messages = new Map<string, WireMessage>();
  private tools: { key: string; tools: readonly WireTool[] } = { key: '[]', tools: [] };

  history(input: readonly WireMessage[]): readonly WireMessage[] {
    return input.map((message) => {
      const key = messageKey(message);
      const known = this.messages.get(key);
      if (known) return known;
      this.messages.set(key, message);
      return message;
    });
  }

  toolsOf(tools: readonly WireTool[]): readonly WireTool[] {
    if (tools === this.tools.tools) return tools;
    const key = toolsKey(tools);
    if (key !== this.tools.key) this.tools = { key, tools };
    return this.tools.tools;
  }

  get size(): number {
    return this.messages.size;
  }
}
