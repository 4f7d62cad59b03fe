/**
 * The session report's list of conversations: every chat conversation of this window (the request log feeds only
 * conversation turns, core/request/purpose.ts: never an inline suggestion, a commit message or a title) and the
 * last ones of earlier windows, persisted (`opencode.reportConversations`), at most MAX_LISTED. An entry is small
 * (name, model, count, times); the full requests stay in the request log, which holds the newest
 * MAX_CONVERSATIONS — an older entry opens from its recording when opencode.recordRequests kept one.
 */
import * as v from 'valibot';
import { BoundedMap } from '../util/boundedMap';
import { MAX_NAME_CHARS } from './conversationName';
import { conversationTitle, type AddedBatch, type ConversationLog } from './requestLog';

export const MAX_LISTED = 200;
export const CONVERSATION_INDEX_KEY = 'opencode.reportConversations';

export interface ListedConversation {
  sessionId: string;
  name: string;
  modelId: string;
  requests: number;
  firstAt: number;
  lastAt: number;
  /** Seen in an earlier window (loaded from saved state, not yet seen again in this one). */
  earlier?: boolean;
}

const entrySchema = v.object({
  sessionId: v.pipe(v.string(), v.regex(/^ses_[0-9a-f]{32}$/)),
  name: v.pipe(v.string(), v.maxLength(MAX_NAME_CHARS)),
  modelId: v.pipe(v.string(), v.minLength(1), v.maxLength(300)),
  requests: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1e9)),
  firstAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lastAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** Saved entries that pass the schema, oldest first; anything else is dropped (counted). */
export function loadListed(raw: unknown): { entries: ListedConversation[]; dropped: number } {
  if (!Array.isArray(raw)) return { entries: [], dropped: raw === undefined || raw === null ? 0 : 1 };
  const entries: ListedConversation[] = [];
  let dropped = 0;
  for (const item of raw.slice(-MAX_LISTED)) {
    const parsed = v.safeParse(entrySchema, item);
    if (parsed.success) entries.push({ ...parsed.output, earlier: true });
    else dropped++;
  }
  return { entries, dropped: dropped + Math.max(0, raw.length - MAX_LISTED) };
}

export class ConversationIndex {
  private readonly byId = new BoundedMap<string, ListedConversation>(MAX_LISTED);

  /** `changed` runs after each change, so the owner can save (debounced) toJSON(). */
  constructor(saved: readonly ListedConversation[] = [], private readonly changed?: () => void) {
    for (const entry of saved) this.byId.set(entry.sessionId, entry);
  }

  /** Requests of conversations were accounted (RequestLog's batch): their entries are created or updated. */
  noteBatch(batch: readonly AddedBatch[]): void {
    for (const { log, requests } of batch) this.note(log, requests);
  }

  /** `requests` more of a conversation were accounted: its entry is created or updated (newest last). */
  note(log: ConversationLog, requests = 1): void {
    const last = log.records[log.records.length - 1];
    if (!last) return;
    const known = this.byId.peek(log.sessionId);
    const name = conversationTitle(log);
    this.byId.set(log.sessionId, {
      sessionId: log.sessionId,
      name: name.slice(0, MAX_NAME_CHARS),
      modelId: log.modelId,
      // Counted as the batches come: the count goes on across windows and evictions from the request log.
      requests: (known?.requests ?? 0) + requests,
      firstAt: known?.firstAt ?? log.records[0].at,
      lastAt: last.at,
    });
    this.changed?.();
  }

  /** Most recent first. */
  list(): ListedConversation[] {
    return [...this.byId.entriesInOrder()].map(([, entry]) => entry).reverse();
  }

  /** What is saved: oldest first, without the window flag. */
  toJSON(): Omit<ListedConversation, 'earlier'>[] {
    return [...this.byId.entriesInOrder()].map(([, { earlier: _earlier, ...entry }]) => entry);
  }
}
