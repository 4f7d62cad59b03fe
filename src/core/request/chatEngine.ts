/**
 * One request end to end, without VS Code: prepare (convert, trim) → attempt (streamAnswer.ts) → retry or
 * not (retryPolicy.ts) → account (usage, overflow, calibration). The engine holds what outlives a request:
 * size memo, calibrations, learned windows, per-conversation trim state, remembered reasoning, native replay
 * layouts, learned routes, refused parameters and session claims, persisted through a small key-value store.
 */
import { isLoopbackUrl } from '../config/endpoint';
import type { Settings } from '../config/settings';
import { PersistedStore } from '../state/persisted';
import { MAX_DROPPED_PARAMS, validCalibration, validContextWindow, validDroppedParams, validLayout, validLearnedRoutes, validReasoning, validSessionClaim, validTrimState } from '../state/records';
import { completeLayout, NATIVE_REPLAY_BOUNDS, NativeReplayMemory, type AssistantLayout } from '../routes/nativeReplay';
import { routeById } from '../routes/registry';
import type { RouteId } from '../routes/route';
import { LearnedRoutes } from '../routes/select/learnedRoutes';
import { learnedWins } from '../models/modelTable';
import type { RouteChoice } from '../routes/select/selectRoute';
import { chooseRoute, learnRoute, RefusedPins, switchedRoute, type RouteSwitch } from './routeSwitch';
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
import { bodyFor, convertForRequest, prepareConverted, type ChatRequest, type PreparedRequest } from './prepareRequest';
import { sentRecord } from '../replay/sentRecord';
import type { WireMessage } from '../wire/wireTypes';
import { failureClass, nextRetryDelayMs, sleep } from './retryPolicy';
import { streamAnswer, type Shown } from './streamAnswer';
import { attemptBody } from './sendBody';
import { unsupportedParamOf } from './unsupportedParams';
import { retryLine, truncationLine } from './streamLog';
import { redact } from '../util/redact';
import { cancelledError, isContextLengthError, missingKeyError, toUserFacingError } from './userFacingError';
import type { EngineDeps, EngineTiming, RunOutcome, RunScope, SentSoFar } from './engineTypes';

export type { KeyValueStore } from '../state/persisted';
export type { EngineDeps, EngineTiming, RunOutcome } from './engineTypes';

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
  /** Pinned routes (opencode.models api) the gateway refused this session, and the route that answered. */
  private readonly refusedPins = new RefusedPins();

  /** Everything saved is loaded through a validator (core/state/records.ts); invalid records are dropped with one WARN. */
  constructor(private readonly deps: EngineDeps) {
    this.store = new PersistedStore(deps.store, deps.log);
    const load = <V>(key: string, validate: (value: unknown) => V | undefined, capacity = MAX_MODELS) => Object.fromEntries(this.store.loadMap(key, validate, capacity));
    this.calibrations = Calibrations.fromJSON(load(STORE_KEYS.calibrations, validCalibration));
    this.learned = LearnedLimits.fromJSON(load(STORE_KEYS.learned, validContextWindow));
    this.states = ConversationStates.fromJSON(load(STORE_KEYS.states, validTrimState, MAX_TRIM_STATES));
    this.reasoning = ReasoningMemory.fromJSON(load(STORE_KEYS.reasoning, validReasoning, MAX_REASONING_ENTRIES));
    this.unsupported = load(STORE_KEYS.unsupported, validDroppedParams);
    // The newest maxEntries in saved order; fromJSON then applies the character bound the same way.
    this.nativeReplay = NativeReplayMemory.fromJSON(load(STORE_KEYS.nativeReplay, validLayout, NATIVE_REPLAY_BOUNDS.maxEntries));
    this.routes = this.store.loadValue(STORE_KEYS.routes, validLearnedRoutes) ?? new LearnedRoutes();
    const claims = this.store.loadMap(STORE_KEYS.sessions, validSessionClaim, MAX_SESSION_CLAIMS);
    this.sessions = SessionIds.fromEntries(claims, () => void this.store.save(STORE_KEYS.sessions, this.sessions.toJSON()));
    this.accounting = { log: deps.log, calibrations: this.calibrations, states: this.states };
  }

  /** Listed limits first; a window the endpoint itself enforced (learned from its error) wins when smaller. */
  limitsFor(modelId: string, listed: ModelLimits): ModelLimits {
    const learned = this.learned.get(modelId);
    // The table's precedence (models/modelTable.ts): the setting, then the learned window, then the rest.
    if (this.deps.settings().models?.[modelId]?.contextWindow) return listed;
    return learnedWins(listed.contextWindow, learned) ? { ...listed, contextWindow: learned } : listed;
  }

  /** The model's route: the opencode.models setting, else learned, else the table for the endpoint, else chat. */
  routeFor(modelId: string, settings: Settings = this.deps.settings()): RouteChoice {
    return chooseRoute(modelId, settings, this.routes, this.refusedPins);
  }

  /** Converts and prepares in one call (tests); run() converts once (convertForRequest) and prepares from that (prepareFrom), again after a context-length 400. */
  prepare(request: ChatRequest, listed: ModelLimits): PreparedRequest {
    return this.prepareFrom(request, listed, convertForRequest(request, { reasoning: this.reasoning, log: this.deps.log }));
  }

  private prepareFrom(request: ChatRequest, listed: ModelLimits, converted: WireMessage[]): PreparedRequest {
    const settings = this.deps.settings();
    const choice = this.routeFor(request.modelId, settings);
    const limits = this.limitsFor(request.modelId, listed);
    if (!limits.contextWindow) this.noteUnknownWindow(request.modelId, settings.contextLimitFallback);
    return prepareConverted(request, converted, {
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
      reasoningOn: choice.reasoningOn,
      replay: this.nativeReplay,
    });
  }

  private readonly unknownWindowsNoted = new Set<string>();
  /** Models whose incomplete reasoning items were dropped (logged once each). */
  private readonly incompleteNoted = new Set<string>();

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
    if (!endpoint.apiKey && !isLoopbackUrl(endpoint.baseUrl)) throw missingKeyError(endpoint.baseUrl);
    const sent: SentSoFar = { refused: [] };
    try {
      return await this.attempts({ request, listed, settings, endpoint, onEvent, signal }, sent);
    } finally {
      // Once per request, after its last attempt: what that attempt sent (docs/report.md "What a recording holds").
      if (sent.prepared && sent.body) this.deps.record?.(sent.prepared, sentRecord(sent.prepared.route.id, sent.prepared.body, sent.body, sent.refused, sent.prepared.trim.native));
    }
  }

  /** The attempt loop; `sent` follows what the latest attempt sent and the parameters refused on the way. */
  private async attempts(scope: RunScope, sent: SentSoFar): Promise<RunOutcome> {
    const { request, listed, settings, endpoint, signal } = scope;
    const context = { baseUrl: settings.baseUrl, model: request.modelId, apiKey: endpoint.apiKey };
    // Converted once (its [request] lines logged once): a re-trim after a context-length 400 starts from this.
    const converted = convertForRequest(request, { reasoning: this.reasoning, log: this.deps.log });
    let prepared = this.prepareFrom(request, listed, converted);
    const switches: RouteSwitch[] = [];
    let retriedContextLength = false;
    let badAnswerRetries = 0;
    for (let attempt = 1; ; attempt++) {
      this.deps.onAttempt?.(prepared);
      const shown: Shown = { answer: false, thinking: false };
      sent.prepared = prepared;
      sent.body = attemptBody(prepared, settings, this.unsupported[request.modelId] ?? []);
      try {
        const outcome = await this.attempt(scope, prepared, sent.body, shown);
        if (switches.length > 0) this.rememberRoute(settings, request.modelId, switches, prepared.route.id);
        return outcome;
      } catch (error) {
        // Usage that arrived before the throw (a break after only thinking, an empty answer) is still accounted.
        this.accountOnce(request.modelId, prepared, shown);
        if (signal.aborted) throw cancelledError(error);
        if (shown.answer) {
          this.deps.log.warn(redact(truncationLine(error, request.modelId), [endpoint.apiKey]));
          return { prepared, truncated: true };
        }
        const switched = shown.thinking ? undefined : switchedRoute(request.modelId, prepared, error, switches, settings);
        if (switched) {
          prepared = switched;
          continue;
        }
        const refused = this.dropRefusedParam(request.modelId, error);
        if (refused) {
          sent.refused.push(refused);
          continue;
        }
        if (!retriedContextLength && isContextLengthError(error)) {
          retriedContextLength = true;
          prepared = this.retrimAfterContextError(request, listed, converted, (error as Error).message, prepared);
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
  private rememberRoute(settings: Settings, modelId: string, switches: RouteSwitch[], route: RouteId): void {
    const learned = learnRoute(this.routes, settings.baseUrl, modelId, switches, route, settings.models?.[modelId]?.api, this.refusedPins);
    if (learned.changed) void this.store.save(STORE_KEYS.routes, this.routes.toJSON());
    this.deps.log.info(learned.line);
    if (learned.notice) this.deps.notify?.(learned.notice);
  }

  /** A 400 naming a parameter the model does not take: drop it for that model from now on (once per parameter). */
  private dropRefusedParam(modelId: string, error: unknown): string | undefined {
    const refused = unsupportedParamOf(error);
    const dropped = this.unsupported[modelId] ?? [];
    if (!refused || dropped.includes(refused) || dropped.length >= MAX_DROPPED_PARAMS) return undefined;
    this.unsupported[modelId] = [...dropped, refused];
    void this.store.save(STORE_KEYS.unsupported, this.unsupported);
    this.deps.log.warn(`[request] ${modelId} does not accept "${refused}"; sending without it from now on.`);
    return refused;
  }


  private get timing(): EngineTiming {
    return { sleep, random: Math.random, ...this.deps.timing };
  }

  /** Learns the window the error names (else cuts one more grid move) and prepares the request again. */
  /** Re-trims on the route that answered "too long" (a route switched to in this request is not learned yet). */
  private retrimAfterContextError(request: ChatRequest, listed: ModelLimits, converted: WireMessage[], message: string, refused: PreparedRequest): PreparedRequest {
    const sessionId = refused.sessionId;
    const learnedWindow = parseContextLimit(message);
    if (learnedWindow && this.learned.learn(request.modelId, learnedWindow)) {
      void this.store.save(STORE_KEYS.learned, this.learned.toJSON());
      this.deps.onLimitsChanged?.();
    }
    else this.states.addExtraGridMove(sessionId);
    this.deps.log.warn(`[history-trim] ${request.modelId} rejected the request as too long${learnedWindow ? ` (limit ${learnedWindow} tokens, now remembered)` : ''}; trimming again and retrying once.`);
    const retrimmed = this.prepareFrom(request, listed, converted);
    return retrimmed.route.id === refused.route.id ? retrimmed : bodyFor(retrimmed, refused.route);
  }

  /** One attempt; then the reasoning memory and the accounting, and the usage reported last. */
  private async attempt(scope: RunScope, prepared: PreparedRequest, body: Record<string, unknown>, shown: Shown): Promise<RunOutcome> {
    const { endpoint, settings, onEvent, signal } = scope;
    const modelId = scope.request.modelId;
    const dropped = new Set<string>(this.unsupported[modelId] ?? []);
    const route = prepared.route;
    const answer = await streamAnswer(
      {
        endpoint,
        route,
        body,
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
    this.rememberLayout(modelId, answer.layout);
    // Usage goes one way: stream → accounting → VS Code, once.
    const usage = this.accountOnce(modelId, prepared, shown);
    if (usage) onEvent({ kind: 'usage', usage });
    return { usage, prepared, truncated: !answer.complete };
  }

  /** Native items to pass back on later turns, persisted so they survive a restart. */
  private rememberLayout(modelId: string, layout: AssistantLayout | undefined): void {
    if (layout && completeLayout(layout).dropped > 0 && !this.incompleteNoted.has(modelId)) {
      this.incompleteNoted.add(modelId);
      this.deps.log.warn(`[request] ${modelId} returned reasoning or thinking without its encrypted content or signature; it is not passed back (the API would refuse it).`);
    }
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
