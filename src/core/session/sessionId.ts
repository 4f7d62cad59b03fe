/**
 * The `x-opencode-session` header and the key of a conversation's trim state: stable for one conversation,
 * so OpenCode Go routes every turn to the same prompt cache, and never shared by two conversations that open
 * the same way (same agent prompt and task template), so one's cut is never applied to the other.
 *
 * VS Code gives a provider no conversation id, so the id is derived from the history. The first user message
 * gives the base id, which a conversation's first request uses; the system prompt is not part of it (VS Code's
 * agent grows it between turns). The message
 * after the opening (the first answer) tells conversations apart: the first conversation seen with an
 * opening claims the base id for its first answer and keeps it; another conversation with the same opening
 * and a different first answer gets an id derived from both. The claims are persisted, so a restart keeps
 * every id. Decision record: docs/history-trim.md "Conversation identity".
 */
import { createHash, randomUUID } from 'crypto';
import type { WireMessage } from '../wire/wireTypes';
import { BoundedMap } from '../util/boundedMap';

/** Conversations whose first answers are remembered; an older one that returns gets a derived id once. */
export const MAX_SESSION_CLAIMS = 1_000;

/**
 * The base id: a hash of the first user message (the system prompt left out). Pure. The benchmark uses it alone: it plans one conversation per
 * trim state, and the first conversation seen with an opening keeps the base id, so it is the engine's id there.
 */
export function conversationSessionId(messages: readonly WireMessage[]): string {
  // The system prompt is left out: VS Code's agent grows it between turns (a skills or agents block appears),
  // and the id must follow the conversation, not the system text (docs/history-trim.md "Conversation identity").
  const firstUser = messages.find((m) => m.role === 'user');
  const hash = createHash('sha256');
  if (firstUser) hash.update('user').update('\u0000').update(JSON.stringify(firstUser.content)).update('\u0000');
  else if (messages.length > 0) hash.update(JSON.stringify(messages[0]));
  return `ses_${hash.digest('hex').slice(0, 32)}`;
}

/** The first message after the opening (leading system messages and the first user message), if any. */
function firstAfterOpening(messages: readonly WireMessage[]): WireMessage | undefined {
  const firstUser = messages.findIndex((m) => m.role !== 'system');
  if (firstUser < 0 || messages[firstUser].role !== 'user') return undefined;
  return messages[firstUser + 1];
}

/** What identifies the first answer; reasoning is left out because the history may lose and regain it. */
function fingerprint(message: WireMessage): string {
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []).map((c) => [c.id, c.function.name, c.function.arguments]) : [];
  const text = JSON.stringify([message.role, 'content' in message ? message.content : null, calls]);
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

export class SessionIds {
  /** Base id → fingerprint of the first answer of the conversation that owns it. */
  private readonly claims = new BoundedMap<string, string>(MAX_SESSION_CLAIMS);

  /**
   * `onClaim` runs when a new claim is made, so the owner can persist the claims. `scope` (an endpoint id) keeps the
   * ids of one conversation on two endpoints apart (docs/endpoints.md); without it the ids are as they always were.
   */
  constructor(private readonly onClaim?: () => void, private readonly scope?: string) {}

  idFor(messages: readonly WireMessage[]): string {
    const id = this.unscopedId(messages);
    return this.scope === undefined ? id : `ses_${createHash('sha256').update(`${this.scope}\u0000${id}`).digest('hex').slice(0, 32)}`;
  }

  private unscopedId(messages: readonly WireMessage[]): string {
    const base = conversationSessionId(messages);
    const first = firstAfterOpening(messages);
    if (!first) return base;
    const answer = fingerprint(first);
    const owner = this.claims.get(base);
    if (owner === undefined) {
      this.claims.set(base, answer);
      this.onClaim?.();
      return base;
    }
    if (owner === answer) return base;
    return `ses_${createHash('sha256').update(`${base}\u0000${answer}`).digest('hex').slice(0, 32)}`;
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries(this.claims.entriesInOrder());
  }

  /** Entries already validated (core/request/savedRecords.ts), oldest first. */
  static fromEntries(entries: Iterable<[string, string]>, onClaim?: () => void, scope?: string): SessionIds {
    const ids = new SessionIds(onClaim, scope);
    for (const [base, answer] of entries) ids.claims.set(base, answer);
    return ids;
  }
}

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}
