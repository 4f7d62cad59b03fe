/**
 * Optional cache warming (opencode.promptCache.warming, off by default; docs/prompt-cache.md): when a
 * conversation goes idle after an answer, re-read its cached prefix shortly before the provider's lifetime ends,
 * by sending its last request again with the smallest answer (its route's `attempt.warming`), at most `maxRequests` times per
 * pause. It never runs after the user goes on in that conversation (the next request cancels it, also one in
 * flight) or after dispose (the window or the extension closed), and it never touches what the next request is
 * built from: it only re-sends bytes already sent. Timers are injected, so tests drive time themselves.
 *
 * Data flows one way: the engine's hooks hand the warmer what the accounted attempt sent (its body as it went out,
 * the parameters the model refused: EngineDeps.onAccounted), and the route's rule (`attempt.warming.body`) makes the
 * warming body from it; nothing here calls back into the request layer to rebuild a body. The hooks run only for
 * a purpose that warms (core/request/purpose.ts: a conversation turn; never an inline suggestion or a commit).
 */
import type { Logger } from '../log';
import type { RequestCost } from '../cost/requestCost';
import { formatUsd } from '../cost/requestCost';
import type { RouteId } from '../routeId';
import type { NormalizedUsage } from '../types';
import { WARM_LEAD_MS } from './lifetimes';
import { routeById } from '../routes/registry/registry';
import { outsideText } from '../util/excerpt';
import type { Settings } from '../config/settings';
import type { PreparedRequest } from '../request/prepareRequest';
import type { SentAttempt } from '../request/engineTypes';

export interface WarmTimers {
  /** `run` returns the warming it started (a test timer may await it). */
  set(run: () => unknown, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers, unref'd: a pending warm never keeps the process alive. */
export const NODE_TIMERS: WarmTimers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The conversation's last request as it was sent. */
export interface WarmTarget {
  sessionId: string;
  modelId: string;
  route: RouteId;
  body: Record<string, unknown>;
  /** Parameters the model refused (not put back by the warming body). */
  refused?: ReadonlySet<string>;
  /** The request's reported prompt tokens: a prompt below MIN_CACHEABLE_TOKENS is not cached, so not warmed. */
  promptTokens: number;
}

/** Neither OpenAI nor Anthropic caches a prompt shorter than this (a chat title request, say). */
export const MIN_CACHEABLE_TOKENS = 1_024;

export interface WarmOutcome {
  usage?: NormalizedUsage;
  cost?: RequestCost;
}

export interface WarmerDeps {
  timers: WarmTimers;
  settings: () => { enabled: boolean; maxRequests: number };
  /** Sends one warming body on the target's route (warmRequest.ts). */
  send: (target: WarmTarget, body: Record<string, unknown>, signal: AbortSignal) => Promise<WarmOutcome>;
  log: Logger;
  /** After each warming request (the request log counts it apart). */
  onWarmed?: (target: WarmTarget, outcome: WarmOutcome) => void;
}

interface Pause {
  target: WarmTarget;
  body: Record<string, unknown>;
  lifetimeMs: number;
  sent: number;
  timer?: unknown;
  inFlight?: AbortController;
}

/** Conversations warmed at once, at most (the request log keeps as many). */
export const MAX_WARMED_CONVERSATIONS = 10;

export class CacheWarmer {
  private readonly pauses = new Map<string, Pause>();
  private disposed = false;

  constructor(private readonly deps: WarmerDeps) {}

  /** A request of the conversation was answered: its pause starts now (when warming is on and can help). */
  answered(target: WarmTarget): void {
    this.wentOn(target.sessionId);
    const settings = this.deps.settings();
    if (this.disposed || !settings.enabled || target.promptTokens < MIN_CACHEABLE_TOKENS) return;
    const rules = routeById(target.route).attempt.warming;
    const lifetimeMs = rules.prefixLifetimeMs(target.body);
    const body = rules.body(target.body, target.refused ?? new Set());
    if (lifetimeMs === undefined || !body) return;
    const pause: Pause = { target, body, lifetimeMs, sent: 0 };
    this.pauses.set(target.sessionId, pause);
    this.evictOldest();
    this.schedule(pause);
  }

  /** The user went on in this conversation (a new request started): no more warming for the old pause. */
  wentOn(sessionId: string): void {
    const pause = this.pauses.get(sessionId);
    if (!pause) return;
    this.pauses.delete(sessionId);
    this.stop(pause);
  }

  /** Conversations with a warming timer or request pending. */
  get pending(): number {
    return this.pauses.size;
  }

  dispose(): void {
    this.disposed = true;
    for (const pause of this.pauses.values()) this.stop(pause);
    this.pauses.clear();
  }

  private schedule(pause: Pause): void {
    pause.timer = this.deps.timers.set(() => this.warm(pause), Math.max(0, pause.lifetimeMs - WARM_LEAD_MS));
  }

  private current(pause: Pause): boolean {
    return !this.disposed && this.pauses.get(pause.target.sessionId) === pause;
  }

  private async warm(pause: Pause): Promise<void> {
    pause.timer = undefined;
    const { enabled, maxRequests } = this.deps.settings();
    if (!this.current(pause) || !enabled || pause.sent >= maxRequests) return void this.wentOn(pause.target.sessionId);
    pause.sent++;
    pause.inFlight = new AbortController();
    let outcome: WarmOutcome;
    try {
      outcome = await this.deps.send(pause.target, pause.body, pause.inFlight.signal);
    } catch (error) {
      if (this.current(pause)) {
        this.deps.log.warn(`[warming] ${outsideText(pause.target.modelId)}: the warming request failed (${error instanceof Error ? error.message : String(error)}); no more warming until the next answer.`);
        this.wentOn(pause.target.sessionId);
      }
      return;
    } finally {
      pause.inFlight = undefined;
    }
    this.deps.log.info(warmingLine(pause.target.modelId, pause.sent, maxRequests, outcome));
    this.deps.onWarmed?.(pause.target, outcome);
    if (this.current(pause) && pause.sent < maxRequests) this.schedule(pause);
    else this.wentOn(pause.target.sessionId);
  }

  private stop(pause: Pause): void {
    if (pause.timer !== undefined) this.deps.timers.clear(pause.timer);
    pause.timer = undefined;
    pause.inFlight?.abort();
  }

  private evictOldest(): void {
    for (const sessionId of this.pauses.keys()) {
      if (this.pauses.size <= MAX_WARMED_CONVERSATIONS) return;
      this.wentOn(sessionId);
    }
  }
}

/** `[warming] M re-read the cached prefix (n of N): prompt=P cached=K cost=$D` (cost as on the [usage] line). */
export function warmingLine(modelId: string, n: number, max: number, outcome: WarmOutcome): string {
  const usage = outcome.usage ? ` prompt=${outcome.usage.contextTokens} cached=${outcome.usage.cachedTokens}` : '';
  const cost = outcome.cost ? ` cost${outcome.cost.source === 'reported' ? '=' : '≈'}${formatUsd(outcome.cost.usd)}` : '';
  return `[warming] ${outsideText(modelId)} re-read the cached prefix (${n} of ${max}):${usage}${cost}`;
}

/** The two engine callbacks that drive warming (the extension and the tests wire the same ones). */
export interface WarmingHooks {
  /** An attempt starting: the user went on in that conversation. */
  onAttempt: (prepared: PreparedRequest) => void;
  /** A request accounted: its pause starts, with the body exactly as the engine sent it (`sent`, as data). */
  onAccounted: (modelId: string, prepared: PreparedRequest, usage: NormalizedUsage, cost: unknown, sent: Pick<SentAttempt, 'body' | 'modelRefused'>) => void;
}

export function warmingHooks(warmer: CacheWarmer): WarmingHooks {
  return {
    onAttempt: (prepared) => warmer.wentOn(prepared.sessionId),
    onAccounted: (modelId, prepared, usage, _cost, sent) => warmer.answered({ sessionId: prepared.sessionId, modelId, route: prepared.route.id, body: sent.body, refused: new Set(sent.modelRefused), promptTokens: usage.contextTokens }),
  };
}

/** Warming settings with the defaults (off) when the settings carry none. */
export function warmingSettings(settings: Settings): { enabled: boolean; maxRequests: number } {
  return settings.promptCache?.warming ?? { enabled: false, maxRequests: 3 };
}
