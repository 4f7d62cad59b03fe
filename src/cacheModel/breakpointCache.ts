/**
 * Anthropic's prompt cache, modelled: nothing is cached unless the request marks it. The prompt is a chain of
 * blocks (each tool, each system block, each content block of each message, `cache_control` left out of the
 * hash). A breakpoint writes the prefix up to its block; a request reads the longest written prefix that ends
 * at one of its breakpoints or at most LOOKBACK_BLOCKS blocks before one. More than 4 breakpoints is a 400.
 * Usage comes out the way Anthropic reports it: input (after the last breakpoint) + cache read + cache write.
 * With a clock (optional) a written prefix lives for its breakpoint's lifetime (`ttl: "1h"` an hour, else 5
 * minutes), renewed by each read or write; without one nothing expires.
 */
import { createHash } from 'node:crypto';
import { countValueTokens } from './valueTokens';
import { BoundedMap } from '../core/util/boundedMap';
import { MAX_SESSIONS, PER_MESSAGE_OVERHEAD_TOKENS, type CacheLifetimeOptions } from './prefixCache';

/** Anthropic's breakpoint lifetimes, ms. */
export const BREAKPOINT_LIFETIME_MS = { default: 5 * 60_000, '1h': 60 * 60_000 } as const;

export const MAX_BREAKPOINTS = 4;
export const LOOKBACK_BLOCKS = 20;

export interface MessagesPrompt {
  tools?: unknown[];
  system?: unknown;
  messages: { role?: unknown; content?: unknown }[];
}

interface Block {
  chain: string;
  /** Cumulative tokens up to and including this block. */
  upTo: number;
  breakpoint: boolean;
  /** The breakpoint's lifetime, ms (its `cache_control.ttl`). */
  lifetimeMs: number;
}

export interface BreakpointUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type BreakpointResult = { ok: true; usage: BreakpointUsage; promptTokens: number } | { ok: false; breakpoints: number };

function withoutMarker(block: unknown): unknown {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return block;
  const copy = { ...(block as Record<string, unknown>) };
  delete copy.cache_control;
  return copy;
}

function hasMarker(block: unknown): boolean {
  return typeof block === 'object' && block !== null && 'cache_control' in block;
}

function markerLifetimeMs(block: unknown): number {
  const marker = hasMarker(block) ? (block as { cache_control?: { ttl?: unknown } }).cache_control : undefined;
  return marker?.ttl === '1h' ? BREAKPOINT_LIFETIME_MS['1h'] : BREAKPOINT_LIFETIME_MS.default;
}

/** The prompt's blocks in cache order: tools, system, messages (a message's role is part of its first block). */
export function promptBlocks(prompt: MessagesPrompt): Block[] {
  const raw: { block: unknown; role?: unknown }[] = [];
  for (const tool of prompt.tools ?? []) raw.push({ block: tool });
  for (const block of asBlocks(prompt.system)) raw.push({ block });
  for (const message of prompt.messages) asBlocks(message.content).forEach((block, i) => raw.push({ block, role: i === 0 ? message.role : undefined }));
  let chain = '';
  let upTo = 0;
  return raw.map(({ block, role }) => {
    const content = withoutMarker(block);
    const json = JSON.stringify({ role, content });
    chain = createHash('sha1').update(chain).update('|').update(json).digest('hex');
    upTo += blockTokens(json, content) + (role === undefined ? 0 : PER_MESSAGE_OVERHEAD_TOKENS);
    return { chain, upTo, breakpoint: hasMarker(block), lifetimeMs: markerLifetimeMs(block) };
  });
}

/** Content tokens by block (content-addressed, so valid across sessions): a long session re-counts only new blocks. */
const tokensByBlock = new BoundedMap<string, number>(200_000);

function blockTokens(json: string, content: unknown): number {
  const key = createHash('sha1').update(json).digest('hex');
  let tokens = tokensByBlock.get(key);
  if (tokens === undefined) {
    tokens = countValueTokens(content);
    tokensByBlock.set(key, tokens);
  }
  return tokens;
}

function asBlocks(content: unknown): unknown[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return Array.isArray(content) ? content : [];
}

export class BreakpointCache {
  /** Per session (the least recently used forgotten first): prefix-chain hash → tokens up to that block. */
  private readonly written = new BoundedMap<string, Map<string, { upTo: number; expiresAt: number }>>(MAX_SESSIONS);

  /** `lifetimes`: model expiry on this clock (absent: written prefixes never expire). */
  constructor(private readonly lifetimes?: CacheLifetimeOptions) {}

  /** Reads what earlier requests of the session wrote, then writes this request's breakpoints. */
  observe(session: string, prompt: MessagesPrompt): BreakpointResult {
    const blocks = promptBlocks(prompt);
    const marks = blocks.map((b, i) => (b.breakpoint ? i : -1)).filter((i) => i >= 0);
    if (marks.length > MAX_BREAKPOINTS) return { ok: false, breakpoints: marks.length };
    const known = this.written.getOrCreate(session, () => new Map());
    const now = this.lifetimes ? this.lifetimes.clock() : 0;
    const until = (lifetimeMs: number): number => (this.lifetimes ? now + lifetimeMs : Infinity);
    let read = 0;
    for (const mark of marks) {
      for (let i = mark; i >= Math.max(0, mark - LOOKBACK_BLOCKS); i--) {
        const cached = known.get(blocks[i].chain);
        if (cached && cached.expiresAt > now) {
          read = Math.max(read, blocks[i].upTo);
          // A read renews the prefix for the reading breakpoint's lifetime.
          known.set(blocks[i].chain, { upTo: cached.upTo, expiresAt: Math.max(cached.expiresAt, until(blocks[mark].lifetimeMs)) });
          break;
        }
      }
    }
    const total = blocks.length > 0 ? blocks[blocks.length - 1].upTo : 0;
    const lastMark = marks.length > 0 ? blocks[marks[marks.length - 1]].upTo : 0;
    for (const mark of marks) known.set(blocks[mark].chain, { upTo: blocks[mark].upTo, expiresAt: until(blocks[mark].lifetimeMs) });
    const written = Math.max(0, lastMark - read);
    const usage = { input_tokens: total - Math.max(read, lastMark), cache_creation_input_tokens: written, cache_read_input_tokens: read };
    return { ok: true, usage, promptTokens: total };
  }

  reset(): void {
    this.written.clear();
  }
}
