/** Everything one fake server instance keeps between requests. */
import type { FakeModel, FakeServerOptions, FaultSpec, ScriptedReply, UsageShapeName } from './types';
import { DEFAULT_MODELS } from './models';
import { PrefixCacheModel } from '../cacheModel/prefixCache';
import { BreakpointCache } from '../cacheModel/breakpointCache';
import { RequestRecorder } from './recording';
import { DEFAULT_REPLY_TOKENS } from './replies';

export interface ServerSettings {
  models: readonly FakeModel[];
  usageShape: UsageShapeName;
  requireKey?: string;
  requireSession: boolean;
  replyDelayMs: number;
  replyTokens: number;
  /** OpenCode's cost frame after every stream. */
  costFrames: boolean;
  /** Lifetime of a cached prefix without `prompt_cache_retention: "24h"` (Infinity without a cacheClock). */
  inMemoryCacheMs: number;
}

const DAY_MS = 24 * 60 * 60_000;

/** How long a chat, Responses or Gemini request's prefixes stay cached. */
export function prefixLifetimeMs(settings: ServerSettings, body: unknown): number {
  const retention = (body as { prompt_cache_retention?: unknown } | undefined)?.prompt_cache_retention;
  return retention === '24h' ? DAY_MS : settings.inMemoryCacheMs;
}

export interface ServerState {
  readonly settings: ServerSettings;
  readonly cache: PrefixCacheModel;
  /** /messages: Anthropic's cache, which only keeps what the request's breakpoints mark. */
  readonly messagesCache: BreakpointCache;
  readonly recorder: RequestRecorder;
  readonly replyQueue: ScriptedReply[];
  readonly faultQueue: FaultSpec[];
}

export function settingsFrom(options: FakeServerOptions): ServerSettings {
  return {
    models: options.models && options.models.length > 0 ? options.models : DEFAULT_MODELS,
    usageShape: options.usageShape ?? 'openai',
    requireKey: options.requireKey,
    requireSession: options.requireSession === true,
    replyDelayMs: options.replyDelayMs ?? 0,
    replyTokens: options.replyTokens ?? DEFAULT_REPLY_TOKENS,
    costFrames: options.costFrames !== false,
    inMemoryCacheMs: options.cacheClock ? options.inMemoryCacheMs ?? 5 * 60_000 : Infinity,
  };
}

export function createState(options: FakeServerOptions): ServerState {
  return {
    settings: settingsFrom(options),
    cache: new PrefixCacheModel(options.cacheClock && { clock: options.cacheClock }),
    messagesCache: new BreakpointCache(options.cacheClock && { clock: options.cacheClock }),
    recorder: new RequestRecorder(),
    replyQueue: [],
    faultQueue: [],
  };
}

/** Clears queues, recordings and every session's cached prefixes. */
export function resetState(state: ServerState): void {
  state.replyQueue.length = 0;
  state.faultQueue.length = 0;
  state.recorder.reset();
  state.cache.reset();
  state.messagesCache.reset();
}
