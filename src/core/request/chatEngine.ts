/**
 * One request end to end, without VS Code: prepare (convert, trim) → attempt (streamAnswer.ts) → retry or
 * not (retryPolicy.ts) → account (usage, overflow, calibration). The engine holds what outlives a request:
 * size memo, calibrations, learned windows, per-conversation trim state, remembered reasoning and refused
 * parameters, persisted through a small key-value store.
 */
import { isLoopbackUrl } from '../config/endpoint';
import type { Settings } from '../config/settings';
import type { Logger } from '../log';
import { PersistedStore, type KeyValueStore } from '../state/persisted';
import { MAX_DROPPED_PARAMS, validCalibration, validContextWindow, validDroppedParams, validLayout, validLearnedRoutes, validReasoning, validSessionClaim, validTrimState } from '../state/records';
import { NativeReplayMemory, type AssistantLayout } from '../routes/nativeReplay';
import { routeById } from '../routes/registry';
import type { RouteId } from '../routes/route';
import { LearnedRoutes } from '../routes/select/learnedRoutes';
import type { RouteChoice } from '../routes/select/selectRoute';
import { chooseRoute, learnRoute, switchedRoute, type RouteSwitch } from './routeSwitch';
import { MAX_SESSION_CLAIMS, SessionIds } from '../session/sessionId';
import { ReasoningMemory } from '../convert/reasoningMemory';
import { Calibrations } from '../trim/calibration';
import { MAX_MODELS } from '../state/perModel';
import { ConversationStates } from '../trim/conversationState';
import { LearnedLimits, parseContextLimit } from '../trim/learnedLimits';
import { SizeMemo } from '../trim/messageSize';
import type { ModelLimits, NormalizedUsage, StreamEvent } from '../types';
import { accountUsage, type AccountingState } from './accountUsage';
import { OPENCODE_CLIENT, type Endpoint } from './chatTransport';
import { prepareRequest, type ChatRequest, type PreparedRequest } from './prepareRequest';
import { failureClass, nextRetryDelayMs, sleep } from './retryPolicy';
import { streamAnswer, type Shown } from './streamAnswer';
import { sendBody } from './sendBody';
import { unsupportedParamOf } from './unsupportedParams';
import { retryLine, truncationLine } from './streamLog';
import { redact } from '../util/redact';
import { cancelledError, isContextLengthError, missingKeyError, toUserFacingError } from './userFacingError';

export type { KeyValueStore } from '../state/persisted';

export interface EngineDeps {
  log: Logger;
  store: KeyValueStore;
  settings: () => Settings;
  apiKey: () => Promise<string | undefined>;
  /** Called when a learned context limit changes what VS Code should be told about a model. */
  onLimitsChanged?: () => void;
  /** Called after each answer's usage is accounted (feeds the session report's request log). */
  onAccounted?: (modelId: string, prepared: PreparedRequest, usage: NormalizedUsage) => void;
  /** Called once per request (not per attempt: a retry sends the same history) to record it (opencode.recordRequests). */
  record?: (prepared: PreparedRequest) => void;
  /** Called with what each attempt sends, retries included (tests observe the wire through it). */
  onAttempt?: (prepared: PreparedRequest) => void;
  /** Waiting and jitter between attempts, and the idle timeout; real ones unless a test injects its own. */
  timing?: Partial<EngineTiming>;
}

export interface EngineTiming {
  /** Resolves after ms; rejects at once when the signal fires. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Jitter in [0, 1). */
  random(): number;
  /**
   * Overrides opencode.streamIdleTimeoutSeconds, whose minimum (5 s) is right for users and too slow
   * for tests. Never set by the extension.
   */
  idleTimeoutMs?: number;
}


export interface RunOutcome {
  usage?: NormalizedUsage;
  prepared: PreparedRequest;
  /** The answer may be incomplete (cut after content was shown, or no finish reason and no [DONE]); what arrived was kept. */
  truncated: boolean;
}

const STORE_KEYS = {
  calibrations: 'opencode.calibrations',
  learned: 'opencode.learnedLimits',
  states: 'opencode.trimStates',
  reasoning: 'opencode.reasoning',
  unsupported: 'opencode.unsupportedParams',
  sessions: 'opencode.sessionClaims',
  nativeReplay: 'opencode.nativeReplay',
  routes: 'opencode.learnedRoutes',
};
/** The capacities of the persisted maps (the in-memory classes hold as many). */
const MAX_TRIM_STATES = 200;
const MAX_REASONING_ENTRIES = 500;
const MAX_NATIVE_LAYOUTS = 300;

export class ChatEngine {
  readonly memo = new SizeMemo();
  readonly calibrations: Calibrations;
  readonly learned: LearnedLimits;
  readonly states: ConversationStates;
  readonly reasoning: ReasoningMemory;
  /** Which conversation owns each opening (the session id and trim-state key). */
  readonly sessions: SessionIds;
  /** Native items (reasoning, signed thinking) of earlier answers, passed back verbatim (routes/nativeReplay.ts). */
  readonly nativeReplay: NativeReplayMemory;
  /** Routes the gateway taught us, per endpoint and model (routes/select/learnedRoutes.ts). */
  readonly routes: LearnedRoutes;
  /** Parameters each model refused (unsupportedParams.ts). */
  readonly unsupported: Record<string, string[]>;
  /** What the accounting reads and updates: the log, the calibrations and the conversation states. */
  readonly accounting: AccountingState;

  private readonly store: PersistedStore;

  /** Everything saved is loaded through a validator (core/state/records.ts); invalid records are dropped with one WARN. */
  constructor(private readonly deps: EngineDeps) {
    this.store = new PersistedStore(deps.store, deps.log);
    const load = <V>(key: string, validate: (value: unknown) => V | undefined, capacity = MAX_MODELS) => Object.fromEntries(this.store.loadMap(key, validate, capacity));
    this.calibrations = Calibrations.fromJSON(load(STORE_KEYS.calibrations, validCalibration));
    this.learned = LearnedLimits.fromJSON(load(STORE_KEYS.learned, validContextWindow));
    this.states = ConversationStates.fromJSON(load(STORE_KEYS.states, validTrimState, MAX_TRIM_STATES));
    this.reasoning = ReasoningMemory.fromJSON(load(STORE_KEYS.reasoning, validReasoning, MAX_REASONING_ENTRIES));
    this.unsupported = load(STORE_KEYS.unsupported, validDroppedParams);
    this.nativeReplay = NativeReplayMemory.fromJSON(load(STORE_KEYS.nativeReplay, validLayout, MAX_NATIVE_LAYOUTS));
    this.routes = this.store.loadValue(STORE_KEYS.routes, validLearnedRoutes) ?? new LearnedRoutes();
    const claims = this.store.loadMap(STORE_KEYS.sessions, validSessionClaim, MAX_SESSION_CLAIMS);
    this.sessions = SessionIds.fromEntries(claims, () => void this.store.save(STORE_KEYS.sessions, this.sessions.toJSON()));
    this.accounting = { log: deps.log, calibrations: this.calibrations, states: this.states };
  }

  /** Listed limits first; a window the endpoint itself enforced (learned from its error) wins when smaller. */
  limitsFor(modelId: string, listed: ModelLimits): ModelLimits {
    const learned = this.learned.get(modelId);
    if (learned && (!listed.contextWindow || learned < listed.contextWindow)) return { ...listed, contextWindow: learned };
    return listed;
  }

  /** The model's route: the opencode.models setting, else learned, else the table for the endpoint, else chat. */
  routeFor(modelId: string, settings: Settings = this.deps.settings()): RouteChoice {
    return chooseRoute(modelId, settings, this.routes);
  }

  prepare(request: ChatRequest, listed: ModelLimits): PreparedRequest {
    const settings = this.deps.settings();
    const choice = this.routeFor(request.modelId, settings);
    const limits = this.limitsFor(request.modelId, listed);
    if (!limits.contextWindow) this.noteUnknownWindow(request.modelId, settings.contextLimitFallback);
    return prepareRequest(request, {
      settings,
      limits,
      calibration: this.calibrations.factor(request.modelId),
      calibrationSpread: this.calibrations.spread(request.modelId),
      memo: this.memo,
      states: this.states,
      log: this.deps.log,
      reasoning: this.reasoning,
      sessions: this.sessions,
      route: routeById(choice.route),
      reasoningModel: choice.reasoning,
      replay: this.nativeReplay,
    });
  }

  private readonly unknownWindowsNoted = new Set<string>();

  /** Once per model and fallback value: say which window the trim assumes, or that it is off. */
  private noteUnknownWindow(modelId: string, fallback: number): void {
    const key = `${modelId}\u0000${fallback}`;
    if (this.unknownWindowsNoted.has(key)) return;
    this.unknownWindowsNoted.add(key);
    if (fallback > 0) this.deps.log.info(`[history-trim] ${modelId}: context window unknown; trimming to opencode.contextLimitFallback=${fallback}.`);
    else this.deps.log.warn(`[history-trim] ${modelId}: context window unknown and opencode.contextLimitFallback is 0, so its history is not trimmed; long chats may fail with "context too long".`);
  }

  /**
   * Sends the request and streams the answer into onEvent. Retries only while nothing has been shown;
   * after that a broken stream ends with what arrived and a [stream] warning. Throws UserFacingError
   * (kind 'cancelled' when the signal fired, at any point, including a wait between attempts).
   */
  async run(request: ChatRequest, listed: ModelLimits, onEvent: (event: StreamEvent) => void, signal: AbortSignal): Promise<RunOutcome> {
    const settings = this.deps.settings();
    const endpoint: Endpoint = { baseUrl: settings.baseUrl, apiKey: await this.deps.apiKey() };
    const context = { baseUrl: settings.baseUrl, model: request.modelId, apiKey: endpoint.apiKey };
    if (!endpoint.apiKey && !isLoopbackUrl(endpoint.baseUrl)) throw missingKeyError(endpoint.baseUrl);
    let prepared = this.prepare(request, listed);
    const switches: RouteSwitch[] = [];
    let retriedContextLength = false;
    let badAnswerRetries = 0;
    this.deps.record?.(prepared);
    for (let attempt = 1; ; attempt++) {
      this.deps.onAttempt?.(prepared);
      const shown: Shown = { answer: false, thinking: false };
      try {
        const outcome = await this.attempt(endpoint, prepared, settings, onEvent, signal, shown, request.modelId);
        if (switches.length > 0) this.rememberRoute(settings.baseUrl, request.modelId, switches, prepared.route.id);
        return outcome;
      } catch (error) {
        // Usage that arrived before the throw (a break after only thinking, an empty answer) is still accounted.
        this.accountOnce(request.modelId, prepared, shown);
        if (signal.aborted) throw cancelledError(error);
        if (shown.answer) {
          this.deps.log.warn(redact(truncationLine(error, request.modelId), [endpoint.apiKey]));
          return { prepared, truncated: true };
        }
        const switched = shown.thinking ? undefined : switchedRoute(request.modelId, prepared, error, switches, settings.baseUrl);
        if (switched) {
          prepared = switched;
          continue;
        }
        if (this.dropRefusedParam(request.modelId, error)) continue;
        if (!retriedContextLength && isContextLengthError(error)) {
          retriedContextLength = true;
          prepared = this.retrimAfterContextError(request, listed, (error as Error).message, prepared.sessionId);
          continue;
        }
        const delay = shown.thinking ? undefined : nextRetryDelayMs(error, { attempt, maxRetries: settings.maxRetries, badAnswerRetries }, this.timing.random);
        if (delay === undefined) throw toUserFacingError(error, context);
        if (failureClass(error) === 'bad-answer') badAnswerRetries++;
        this.deps.log.warn(redact(retryLine(request.modelId, error, attempt + 1, settings.maxRetries + 1, delay), [endpoint.apiKey]));
        await this.timing.sleep(delay, signal).catch((aborted: unknown) => {
          throw cancelledError(aborted);
        });
      }
    }
  }

  /** The route that answered after a refusal: remembered (persisted) and said in one [route] line. */
  private rememberRoute(baseUrl: string, modelId: string, switches: RouteSwitch[], route: RouteId): void {
    const learned = learnRoute(this.routes, baseUrl, modelId, switches, route);
    if (learned.changed) void this.store.save(STORE_KEYS.routes, this.routes.toJSON());
    this.deps.log.info(learned.line);
  }

  /** A 400 naming a parameter the model does not take: drop it for that model from now on (once per parameter). */
  private dropRefusedParam(modelId: string, error: unknown): boolean {
    const refused = unsupportedParamOf(error);
    const dropped = this.unsupported[modelId] ?? [];
    if (!refused || dropped.includes(refused) || dropped.length >= MAX_DROPPED_PARAMS) return false;
    this.unsupported[modelId] = [...dropped, refused];
    void this.store.save(STORE_KEYS.unsupported, this.unsupported);
    this.deps.log.warn(`[request] ${modelId} does not accept "${refused}"; sending without it from now on.`);
    return true;
  }

  private get timing(): EngineTiming {
    return { sleep, random: Math.random, ...this.deps.timing };
  }

  /** Learns the window the error names (else cuts one more grid move) and prepares the request again. */
  private retrimAfterContextError(request: ChatRequest, listed: ModelLimits, message: string, sessionId: string): PreparedRequest {
    const learnedWindow = parseContextLimit(message);
    if (learnedWindow && this.learned.learn(request.modelId, learnedWindow)) {
      void this.store.save(STORE_KEYS.learned, this.learned.toJSON());
      this.deps.onLimitsChanged?.();
    }
    else this.states.addExtraGridMove(sessionId);
    this.deps.log.warn(`[history-trim] ${request.modelId} rejected the request as too long${learnedWindow ? ` (limit ${learnedWindow} tokens, now remembered)` : ''}; trimming again and retrying once.`);
    return this.prepare(request, listed);
  }

  /** One attempt; then the reasoning memory and the accounting, and the usage reported last. */
  private async attempt(endpoint: Endpoint, prepared: PreparedRequest, settings: Settings, onEvent: (event: StreamEvent) => void, signal: AbortSignal, shown: Shown, modelId: string): Promise<RunOutcome> {
    const dropped = new Set<string>(this.unsupported[modelId] ?? []);
    const route = prepared.route;
    const answer = await streamAnswer(
      {
        endpoint,
        route,
        body: sendBody(prepared.body, { modelId, route: route.id, baseUrl: settings.baseUrl, picked: prepared.effort, setting: settings.models?.[modelId]?.reasoningEffort, dropped }),
        sessionId: prepared.sessionId,
        modelId,
        signal,
        idleTimeoutMs: this.timing.idleTimeoutMs ?? settings.streamIdleTimeoutSeconds * 1000,
        includeUsage: route.id !== 'chat' || !dropped.has('stream_options'),
        client: OPENCODE_CLIENT,
        log: this.deps.log,
      },
      onEvent,
      shown,
    );
    // Kept on every route alike: the restored reasoning is part of what the trim measures, so the cut stays route-neutral.
    if (answer.callIds.length > 0 && answer.thinking) {
      this.reasoning.remember(answer.callIds, answer.thinking);
      void this.store.save(STORE_KEYS.reasoning, this.reasoning.toJSON());
    }
    this.rememberLayout(answer.layout);
    // Usage goes one way: stream → accounting → VS Code, once.
    const usage = this.accountOnce(modelId, prepared, shown);
    if (usage) onEvent({ kind: 'usage', usage });
    return { usage, prepared, truncated: !answer.complete };
  }

  /** Native items to pass back on later turns, persisted so they survive a restart. */
  private rememberLayout(layout: AssistantLayout | undefined): void {
    if (!this.nativeReplay.remember(layout)) return;
    void this.store.save(STORE_KEYS.nativeReplay, this.nativeReplay.toJSON());
  }

  /** Accounts the usage `shown` carries, once (it is cleared), and returns it. */
  private accountOnce(modelId: string, prepared: PreparedRequest, shown: Shown): NormalizedUsage | undefined {
    const usage = shown.usage;
    shown.usage = undefined;
    if (usage) this.account(modelId, prepared, usage);
    return usage;
  }

  private account(modelId: string, prepared: PreparedRequest, usage: NormalizedUsage): void {
    const result = accountUsage(this.accounting, modelId, prepared, usage);
    if (result.calibrated) void this.store.save(STORE_KEYS.calibrations, this.calibrations.toJSON());
    void this.store.save(STORE_KEYS.states, this.states.toJSON());
    this.deps.onAccounted?.(modelId, prepared, usage);
  }
}
