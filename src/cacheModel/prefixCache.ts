/**
 * A model of a provider's exact-prefix prompt cache, the project's one: the fake server, the benchmark and the
 * replay tool drive PrefixCacheModel (o200k-counted, content-hashed blocks); the session report drives the same
 * rule (SeenPrefixes) with its estimator-sized blocks. Pure (no HTTP, no test code); shipped with the report.
 *
 * The prompt is a chain of blocks: the tools (one block, always first, empty when there are none) and then
 * each message. A request's cached tokens are the tokens of the longest run of leading blocks that an
 * earlier request of the same session also started with, rounded down to CACHE_GRANULARITY_TOKENS.
 * Real providers match token by token; matching whole blocks is the simplification (see docs/fake-server.md).
 *
 * Lifetimes (optional, docs/prompt-cache.md): with a clock, a prefix cached at t is gone at t + lifetime unless a
 * request reads (or writes) it again before then, which starts its lifetime anew. Without one nothing expires.
 */
import { createHash } from 'node:crypto';
import { BoundedMap } from '../core/util/boundedMap';
import { countValueTokens } from './valueTokens';

/** Role markers and separators a chat template adds around every message. */
export const PER_MESSAGE_OVERHEAD_TOKENS = 4;
/** Cache hits are reported in whole units of this many tokens. */
export const CACHE_GRANULARITY_TOKENS = 64;
/** Bounds for a long-running fake server (`npm start`): far above any test, benchmark or replay session. */
const MAX_MEMO_BLOCKS = 200_000;
export const MAX_SESSIONS = 1_000;

export interface PromptBody {
  messages: readonly unknown[];
  tools?: readonly unknown[];
}

export interface PromptBlock {
  /** sha1 of the block's JSON. */
  hash: string;
  tokens: number;
}

export interface PromptMeasure {
  /** Tools block first, then one block per message. */
  blocks: PromptBlock[];
  promptTokens: number;
}

export interface CacheObservation {
  promptTokens: number;
  cachedTokens: number;
  /** Tokens of the final message (0 when there is none); the Anthropic usage shape needs it. */
  lastMessageTokens: number;
}

/** Time for the cache lifetimes: ms since any fixed origin (tests and the bench drive their own). */
export type CacheClock = () => number;

export interface CacheLifetimeOptions {
  clock: CacheClock;
}

export interface TokenizeStats {
  blocksTokenized: number;
  blocksFromMemo: number;
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export function roundDownToCacheUnit(tokens: number): number {
  return Math.floor(tokens / CACHE_GRANULARITY_TOKENS) * CACHE_GRANULARITY_TOKENS;
}

/** What identifies a block for the cache: its content hash (here) or any stable key of its content (the report). */
export type BlockKey = string | number | object;

interface PrefixNode {
  children: Map<BlockKey, PrefixNode>;
  /** When this prefix is forgotten (Infinity without lifetimes); a request that reads or writes it renews it. */
  expiresAt: number;
}

/**
 * The exact-prefix rule for one session: every request's leading chains of blocks are remembered (a trie, so a
 * request costs one step per block, no hashing); a request's match is the longest leading run of its blocks that
 * an earlier request also started with.
 */
export class SeenPrefixes {
  private readonly root: PrefixNode = { children: new Map(), expiresAt: Infinity };

  /**
   * Tokens of the matched leading blocks (not rounded), then remembers this request's chain until `expiresAt`.
   * `now`: a prefix whose lifetime ended before it is no match (its node is renewed like a new one).
   */
  observe(blocks: readonly { key: BlockKey; tokens: number }[], now = 0, expiresAt = Infinity): number {
    let node = this.root;
    let matched = 0;
    let cumulative = 0;
    let matching = true;
    for (const block of blocks) {
      cumulative += block.tokens;
      let child = node.children.get(block.key);
      // Every prefix of a seen request was stored, so the first miss ends the common prefix.
      if (child && matching && child.expiresAt > now) matched = cumulative;
      else {
        matching = false;
        if (!child) node.children.set(block.key, (child = { children: new Map(), expiresAt }));
      }
      child.expiresAt = expiresAt;
      node = child;
    }
    return matched;
  }
}

export class PrefixCacheModel {
  /** Content tokens by block hash. Content-addressed, so it stays valid across sessions and resets. */
  private readonly tokensByBlockHash = new BoundedMap<string, number>(MAX_MEMO_BLOCKS);
  /** Per session (the least recently used forgotten first): the prefixes its requests started with. */
  private readonly prefixesBySession = new BoundedMap<string, SeenPrefixes>(MAX_SESSIONS);
  readonly stats: TokenizeStats = { blocksTokenized: 0, blocksFromMemo: 0 };

  /** `lifetimes`: model expiry on this clock (absent: cached prefixes never expire). */
  constructor(private readonly lifetimes?: CacheLifetimeOptions) {}

  /** Prompt tokens of a request without touching any session. Only never-seen blocks are tokenized. */
  measure(body: PromptBody): PromptMeasure {
    const tools = body.tools && body.tools.length > 0 ? body.tools : undefined;
    const blocks = [this.block(tools, 0)];
    for (const message of body.messages ?? []) blocks.push(this.block(message, PER_MESSAGE_OVERHEAD_TOKENS));
    const promptTokens = blocks.reduce((sum, block) => sum + block.tokens, 0);
    return { blocks, promptTokens };
  }

  /** Cached tokens for this request, then remembers its prefixes for later requests of the session. */
  observe(sessionId: string | undefined, body: PromptBody, lifetimeMs = Infinity): CacheObservation {
    return this.observeMeasured(sessionId, this.measure(body), lifetimeMs);
  }

  /** `lifetimeMs`: how long this request's prefixes stay cached (only with a clock). */
  observeMeasured(sessionId: string | undefined, measure: PromptMeasure, lifetimeMs = Infinity): CacheObservation {
    const { blocks, promptTokens } = measure;
    const lastMessageTokens = blocks.length > 1 ? blocks[blocks.length - 1].tokens : 0;
    if (!sessionId) return { promptTokens, cachedTokens: 0, lastMessageTokens };

    const known = this.prefixesBySession.getOrCreate(sessionId, () => new SeenPrefixes());
    const now = this.lifetimes ? this.lifetimes.clock() : 0;
    const expiresAt = this.lifetimes ? now + lifetimeMs : Infinity;
    const matched = known.observe(blocks.map((block) => ({ key: block.hash, tokens: block.tokens })), now, expiresAt);
    return { promptTokens, cachedTokens: roundDownToCacheUnit(matched), lastMessageTokens };
  }

  /** Forgets every session's cached prefixes (the token memo is kept: it only ever saves work). */
  reset(): void {
    this.prefixesBySession.clear();
  }


  private block(content: unknown, overheadTokens: number): PromptBlock {
    const hash = sha1(content === undefined ? '' : JSON.stringify(content));
    let tokens = this.tokensByBlockHash.get(hash);
    if (tokens === undefined) {
      tokens = content === undefined ? 0 : countValueTokens(content);
      this.tokensByBlockHash.set(hash, tokens);
      this.stats.blocksTokenized++;
    } else {
      this.stats.blocksFromMemo++;
    }
    return { hash, tokens: tokens + overheadTokens };
  }
}
