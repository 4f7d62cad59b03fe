/**
 * One request end to end, without VS Code: prepare (convert, trim) → attempt (streamAnswer.ts) → retry or
 * not (retryPolicy.ts) → account (usage, overflow, calibration). The engine holds what outlives a request:
 * size memo, calibrations, learned windows, per-conversation trim state, remembered reasoning, native replay
 * layouts, learned routes, refused parameters and session claims, persisted through a small key-value store.
 */
import { isLoopbackUrl } from '../config/endpoint';
import type { Settings } from '../config/settings';
import { loadChunked } from '../state/chunkedMap';
import { StateWriter, WRITE_DELAY_MS } from '../state/stateWriter';
import { PersistedStore } from '../state/persisted';
import { MAX_REFUSED_PARAMS, validCalibration, validImageDescription, validRefusedParams, validLayout, validLearnedRoutes, validReasoning, validSessionClaim, validTrimState } from './savedRecords';
import { validLearnedLimit } from '../models/learnedLimits';
import { completeLayout, NATIVE_REPLAY_BOUNDS, NativeReplayMemory, type AssistantLayout } from '../answer/nativeReplay';
import { routeById } from '../routes/registry/registry';
import type { RouteId } from '../routeId';
import { LearnedRoutes } from '../routes/select/learnedRoutes';
import { limitsOf, modelFacts, resolveEntry } from '../models/modelEntries';
import type { ListedFields, ModelFacts } from '../models/modelTable';
import type { RouteChoice } from '../routes/select/selectRoute';
import { chooseRoute, learnRoute, RefusedPins, switchedRoute, type RouteSwitch } from './routeSwitch';
import { MAX_SESSION_CLAIMS, SessionIds } from '../session/sessionId';
import { Calibrations } from '../trim/calibration';
import { ConversationStates, TRIM_STATE_CAPACITY } from '../trim/conversationState';
import { LearnedLimits, mayRetryTooLong } from '../models/learnedLimits';
import { SizeMemo } from '../trim/messageSize';
import type { ModelEntry, NormalizedUsage, StreamEvent } from '../types';
import { accountUsage, type AccountingState } from './accountUsage';
import { ImageDescriber } from './describeImages';
import { IMAGE_DESCRIPTION_BOUNDS, ImageDescriptions } from '../images/imageDescriptions';
import type { RequestCost } from '../cost/requestCost';
import { pricesFor } from '../cost/requestCost';
import { longLivedWrites } from '../routes/cacheLifetime';
import { OPENCODE_CLIENT, type Endpoint } from './chatTransport';
import { bodyFor, convertForRequest, prepareConverted, type ChatRequest, type PreparedRequest } from './prepareRequest';
import { sentRecord } from '../replay/sentRecord';
import type { WireMessage } from '../wire/wireTypes';
import { failureClass, nextRetryDelayMs, sleep } from './retryPolicy';
import { streamAnswer, type ShownSoFar } from './streamAnswer';
import { attemptBody } from './sendBody';
import { learnAnswered, learnTooLong, type LimitLearning } from './limitLearning';
import { refusedParamOf } from './refusedParams';
import { retryLine } from './streamLog';
import { redact } from '../util/redact';
import { OnceKeys } from '../util/onceKeys';
import { cancelledError, isContextLengthError, missingKeyError, toUserFacingError } from './userFacingError';
import type { EngineDeps, EngineTiming, RunEnd, RunOutcome, RunScope, SentAttempt } from './engineTypes';
import { outsideText } from '../util/excerpt';
import { MAX_MODELS } from '../util/boundedMap';
import { REASONING_MEMORY_BOUNDS, ReasoningMemory } from '../convert/convertRequest';

export type { KeyValueStore } from '../state/persisted';
export type { EngineDeps, EngineTiming, RunOutcome } from './engineTypes';

/** Every key the engine saves under; each endpoint's engine saves them in its own scope (state/scopedStore.ts). */
export const STORE_KEYS = {
  calibrations: 'opencode.calibrations',
  learned: 'opencode.learnedLimits',
  states: 'opencode.trimStates',
  reasoningMemory: 'opencode.reasoning',
  refusedParams: 'opencode.unsupportedParams',
  sessionClaims: 'opencode.sessionClaims',
  nativeReplay: 'opencode.nativeReplay',
  routes: 'opencode.learnedRoutes',
  imageDescriptions: 'opencode.imageDescriptions',
};

export class ChatEngine {
  readonly memo: SizeMemo;
  readonly calibrations: Calibrations;
  readonly learned: LearnedLimits;
  readonly states: ConversationStates;
  readonly reasoningMemory: ReasoningMemory;
  /** Which conversation owns each opening (the session id and trim-state key). */
  readonly sessionIds: SessionIds;
  /** Native items (reasoning, signed thinking) of earlier answers, passed back verbatim (answer/nativeReplay.ts). */
  readonly nativeReplay: NativeReplayMemory;
  /** Routes the gateway taught us, per endpoint and model (routes/select/learnedRoutes.ts). */
  readonly routes: LearnedRoutes;
  /** Parameters each model refused (refusedParams.ts). */
  readonly refusedParams: Record<string, string[]>;
  /** What the accounting reads and updates: the log, the calibrations and the conversation states. */
  readonly accounting: AccountingState;
  /** Images described for models without image input, remembered by hash (describeImages.ts). */
  readonly describer: ImageDescriber;

  private readonly store: PersistedStore;
  /** The one writer of this engine's saved state: debounced, only what changed (state/stateWriter.ts). */
  private readonly writer: StateWriter;
  /** Pinned routes (opencode.models api) the gateway refused in this activation, and the route that answered. */
  private readonly refusedPins = new RefusedPins();

  /** Everything saved is loaded through a validator (core/request/savedRecords.ts); invalid records are dropped with one WARN. */
  constructor(private readonly deps: EngineDeps) {
    this.store = new PersistedStore(deps.store, deps.log);
    this.memo = deps.memo ?? new SizeMemo();
    const load = <V>(key: string, validate: (value: unknown) => V | undefined, capacity = MAX_MODELS) => Object.fromEntries(this.store.loadMap(key, validate, capacity));
    this.calibrations = Calibrations.fromJSON(load(STORE_KEYS.calibrations, validCalibration));
    this.learned = LearnedLimits.fromJSON(load(STORE_KEYS.learned, validLearnedLimit));
    this.states = ConversationStates.fromJSON(load(STORE_KEYS.states, validTrimState, TRIM_STATE_CAPACITY));
    this.writer = new StateWriter(this.store, deps.timing?.stateWriteDelayMs ?? WRITE_DELAY_MS);
    // The two large memories are saved in chunks: one answer rewrites only what it changed (state/chunkedMap.ts).
    this.reasoningMemory = new ReasoningMemory();
    this.writer.chunkedChanged(loadChunked(this.store, STORE_KEYS.reasoningMemory, this.reasoningMemory, validReasoning, REASONING_MEMORY_BOUNDS.maxEntries), this.reasoningMemory);
    this.refusedParams = load(STORE_KEYS.refusedParams, validRefusedParams);
    // The newest maxEntries in saved order; the memory then applies the character bound the same way.
    this.nativeReplay = new NativeReplayMemory();
    this.writer.chunkedChanged(loadChunked(this.store, STORE_KEYS.nativeReplay, this.nativeReplay, validLayout, NATIVE_REPLAY_BOUNDS.maxEntries), this.nativeReplay);
    this.routes = this.store.loadValue(STORE_KEYS.routes, validLearnedRoutes) ?? new LearnedRoutes();
    const claims = this.store.loadMap(STORE_KEYS.sessionClaims, validSessionClaim, MAX_SESSION_CLAIMS);
    this.sessionIds = SessionIds.fromEntries(claims, () => this.writer.changed(STORE_KEYS.sessionClaims, () => this.sessionIds.toJSON()), deps.sessionScope);
    const descriptions = ImageDescriptions.fromJSON(load(STORE_KEYS.imageDescriptions, validImageDescription, IMAGE_DESCRIPTION_BOUNDS.maxEntries));
    this.describer = new ImageDescriber(descriptions, (request, listed, onEvent, signal) => this.run(request, listed, onEvent, signal), deps.log, () => this.writer.changed(STORE_KEYS.imageDescriptions, () => descriptions.toJSON()));
    this.accounting = { log: deps.log, calibrations: this.calibrations, states: this.states, prices: (modelId) => pricesFor(modelId, deps.settings().catalog) };
  }

  /** Writes every pending change of the saved state now (deactivate, an endpoint let go). */
  flushState(): Promise<void> {
    return this.writer.flush();
  }

  /**
   * What the model table says of a model on this endpoint, with this engine's settings and what the endpoint taught
   * it (learned limits): the one source of model facts for every request and for the picker (models/modelEntries.ts).
   */
  factsFor(modelId: string, listed: ListedFields): ModelFacts {
    return modelFacts(modelId, listed, this.deps.settings(), this.learned.get(modelId));
  }

  /** A listed model as the picker and a request see it (the same lookup as factsFor). */
  resolve(listed: ModelEntry): { entry: ModelEntry; facts: ModelFacts } {
    return resolveEntry(listed, this.deps.settings(), undefined, this.learned.get(listed.id));
  }

  /** The model's route: the opencode.models setting, else learned, else the table for the endpoint, else chat. */
  routeFor(modelId: string, settings: Settings = this.deps.settings(), statedApi?: RouteId): RouteChoice {
    return chooseRoute(modelId, settings, this.routes, this.refusedPins, statedApi);
  }

  /** Trim and body from the request converted once (convertForRequest in attempts()), again after a context-length 400. */
  private prepareFrom(request: ChatRequest, listed: ListedFields, converted: WireMessage[]): PreparedRequest {
    const settings = this.deps.settings();
    // The route the endpoint's /models states (a custom endpoint's own word) is tried first, not found by trial.
    const choice = this.routeFor(request.modelId, settings, listed.api);
    const facts = this.factsFor(request.modelId, listed);
    const limits = limitsOf(facts);
    if (!limits.contextWindow) this.noteUnknownWindow(request.modelId, settings.contextLimitFallback);
    else if (limits.estimatedFrom) this.noteEstimate(request.modelId, limits.estimatedFrom);
    return prepareConverted(request, converted, {
      settings,
      limits,
      calibration: this.calibrations.factor(request.modelId),
      calibrationSpread: this.calibrations.spread(request.modelId),
      memo: this.memo,
      states: this.states,
      log: this.deps.log,
      reasoningMemory: this.reasoningMemory,
      sessionIds: this.sessionIds,
      route: routeById(choice.route),
      reasons: choice.reasons,
      reasonsOn: choice.reasonsOn,
      replay: this.nativeReplay,
    });
  }

  /** Notes said once: the window assumed per model and fallback, incomplete reasoning items dropped per model. */
  private readonly noted = new OnceKeys();

  /** Once per model and fallback value: say which window the trim assumes, or that it is off. */
  private noteUnknownWindow(modelId: string, fallback: number): void {
    const key = `${modelId}\u0000${fallback}`;
    if (!this.noted.first(`window\u0000${key}`)) return;
    if (fallback > 0) this.deps.log.info(`[history-trim] ${outsideText(modelId)}: context window unknown; trimming to opencode.contextLimitFallback=${fallback}.`);
    else this.deps.log.warn(`[history-trim] ${outsideText(modelId)}: context window unknown and opencode.contextLimitFallback is 0, so its history is not trimmed; long chats may fail with "context too long".`);
  }

  /** Once per model and stand-in: no data lists the model, so its family's newest model's limits are assumed. */
  private noteEstimate(modelId: string, from: string): void {
    if (this.noted.first(`estimate\u0000${modelId}\u0000${from}`)) this.deps.log.info(`[history-trim] ${outsideText(modelId)}: no model data lists it; trimming to the limits of ${from}, the newest of its family (estimated until data or the endpoint says better).`);
  }

  /**
   * Sends the request and streams the answer into onEvent. Retries only while nothing has been shown;
   * after that a broken stream fails (kind 'cut') after what arrived, with a [stream] warning. Throws
   * UserFacingError (kind 'cancelled' when the signal fired, at any point, including a wait between attempts).
   */
  async run(request: ChatRequest, listed: ListedFields, onEvent: (event: StreamEvent) => void, signal: AbortSignal): Promise<RunOutcome> {
    const settings = this.deps.settings();
    const endpoint: Endpoint = { baseUrl: settings.baseUrl, apiKey: await this.deps.apiKey() };
    if (!endpoint.apiKey && !isLoopbackUrl(endpoint.baseUrl)) throw missingKeyError(endpoint.baseUrl);
    // Before the conversion: a text-only model's images become their (remembered) descriptions.
    const described = request.describeWith && request.imageInput === false ? await this.describer.describe(request, signal) : { request, tally: { requests: 0, costUsd: 0 } };
    const end = await this.attempts({ request: described.request, listed, settings, endpoint, onEvent, signal });
    // Sending refreshed the recency of remembered reasoning and layouts: saved with the next write.
    this.writer.touch();
    // Once per request, after its last attempt: what that attempt sent (docs/report.md "What a recording holds").
    const sent = end.sent;
    if (sent && described.tally.requests > 0) this.deps.onDescribed?.(sent.prepared.sessionId, described.tally);
    if (sent) this.deps.record?.(sent.prepared, sentRecord(sent.prepared.route.id, sent.prepared.body, sent.body, [...sent.refused], sent.prepared.trim.native));
    if ('error' in end) throw end.error;
    return end.outcome;
  }

  /** The attempt loop, to its end: the outcome or the error for the user, and what the last attempt sent. */
  private async attempts(scope: RunScope): Promise<RunEnd> {
    const { request, listed, settings, endpoint, signal } = scope;
    const context = { baseUrl: settings.baseUrl, model: request.modelId, apiKey: endpoint.apiKey };
    // Converted once (its [request] lines logged once): a re-trim after a context-length 400 starts from this.
    const converted = await convertForRequest(request, { reasoningMemory: this.reasoningMemory, log: this.deps.log });
    let prepared = this.prepareFrom(request, listed, converted);
    const switches: RouteSwitch[] = [];
    const refused: string[] = [];
    let sent: SentAttempt | undefined;
    let contextRetries = 0;
    let guessed = false;
    let badAnswerRetries = 0;
    for (let attempt = 1; ; attempt++) {
      this.deps.onAttempt?.(prepared);
      sent = { prepared, body: attemptBody(prepared, settings, this.refusedParams[request.modelId] ?? []), refused: [...refused] };
      const tried = await this.attempt(scope, prepared, sent.body);
      if (!('error' in tried)) {
        if (switches.length > 0) this.rememberRoute(settings, request.modelId, switches, prepared.route.id);
        return { sent, outcome: tried.outcome };
      }
      const { error, shown } = tried;
      if (signal.aborted) return { sent, error: cancelledError(error) };
      // Cut after text or a call was shown: a retry would show it twice; the caller gets the error after the kept parts.
      if (shown === 'answer') return { sent, error: toUserFacingError(error, context) };
      const switched = shown === 'thinking' ? undefined : switchedRoute(request.modelId, prepared, error, switches, settings);
      if (switched) {
        prepared = switched;
        continue;
      }
      const refusedNow = this.learnRefusedParam(request.modelId, error);
      if (refusedNow) {
        refused.push(refusedNow);
        continue;
      }
      if (isContextLengthError(error) && mayRetryTooLong(contextRetries, guessed)) {
        contextRetries++;
        ({ prepared, guessed } = this.retrimAfterContextError(request, listed, converted, (error as Error).message, prepared));
        continue;
      }
      const delay = shown === 'thinking' ? undefined : nextRetryDelayMs(error, { attempt, maxRetries: settings.maxRetries, badAnswerRetries }, this.timing.random);
      if (delay === undefined) return { sent, error: toUserFacingError(error, context) };
      if (failureClass(error) === 'bad-answer') badAnswerRetries++;
      this.deps.log.warn(redact(retryLine(request.modelId, error, attempt + 1, settings.maxRetries + 1, delay), [endpoint.apiKey]));
      const waited = await this.timing.sleep(delay, signal).then(() => undefined, (aborted: unknown) => aborted);
      if (waited !== undefined) return { sent, error: cancelledError(waited) };
    }
  }

  /** The route that answered after a refusal: remembered (persisted) and said in one [route] line. */
  private rememberRoute(settings: Settings, modelId: string, switches: RouteSwitch[], route: RouteId): void {
    const learned = learnRoute(this.routes, settings.baseUrl, modelId, switches, route, settings.models?.[modelId]?.api, this.refusedPins);
    if (learned.changed) this.writer.changed(STORE_KEYS.routes, () => this.routes.toJSON());
    this.deps.log.info(learned.line);
    if (learned.notice) this.deps.notify?.(learned.notice);
  }

  /** A 400 naming a parameter the model does not take: drop it for that model from now on (once per parameter). */
  private learnRefusedParam(modelId: string, error: unknown): string | undefined {
    const refused = refusedParamOf(error);
    const known = this.refusedParams[modelId] ?? [];
    if (!refused || known.includes(refused) || known.length >= MAX_REFUSED_PARAMS) return undefined;
    this.refusedParams[modelId] = [...known, refused];
    this.writer.changed(STORE_KEYS.refusedParams, () => this.refusedParams);
    this.deps.log.warn(`[request] ${outsideText(modelId)} does not accept "${refused}"; sending without it from now on.`);
    return refused;
  }

  private get timing(): EngineTiming {
    return { sleep, random: Math.random, ...this.deps.timing };
  }

  /** What learning a model's limits works with (limitLearning.ts). */
  private get limitLearning(): LimitLearning {
    return { learned: this.learned, states: this.states, log: this.deps.log, save: () => this.writer.changed(STORE_KEYS.learned, () => this.learned.toJSON()), changed: () => this.deps.onLimitsChanged?.() };
  }

  /** Learns from a "too long" refusal and prepares the request again, on the route that answered so (a route switched to in this request is not learned yet). */
  private retrimAfterContextError(request: ChatRequest, listed: ListedFields, converted: WireMessage[], message: string, refused: PreparedRequest): { prepared: PreparedRequest; guessed: boolean } {
    const { guessed } = learnTooLong(this.limitLearning, request.modelId, message, refused);
    const retrimmed = this.prepareFrom(request, listed, converted);
    return { prepared: retrimmed.route.id === refused.route.id ? retrimmed : bodyFor(retrimmed, refused.route), guessed };
  }

  /** One attempt, its usage accounted once whatever happened; on an answer, the reasoning memory, the layout, and the usage reported last. */
  private async attempt(scope: RunScope, prepared: PreparedRequest, body: Record<string, unknown>): Promise<{ outcome: RunOutcome } | { error: unknown; shown: ShownSoFar }> {
    const { endpoint, settings, onEvent, signal } = scope;
    const modelId = scope.request.modelId;
    const route = prepared.route;
    const tried = await streamAnswer(
      {
        endpoint,
        route,
        body,
        sessionId: prepared.sessionId,
        modelId,
        signal,
        idleTimeoutMs: this.timing.idleTimeoutMs ?? settings.streamIdleTimeoutSeconds * 1000,
        includeUsage: route.attempt.usageAsked?.(new Set(this.refusedParams[modelId] ?? [])) ?? true,
        client: OPENCODE_CLIENT,
        log: this.deps.log,
      },
      onEvent,
    );
    const { answer } = tried;
    // Usage that arrived before a failure (a break after only thinking, an empty answer) is accounted too.
    const cost = answer.usage ? this.account(modelId, prepared, answer.usage, { trusted: !answer.usageAnomaly, reportedUsd: answer.cost, longCacheWrites: longLivedWrites(body) }) : undefined;
    if (tried.error !== undefined) return { error: tried.error, shown: tried.shown };
    // Kept on every route alike: the restored reasoning is part of what the trim measures, so the cut stays route-neutral.
    if (answer.callIds.length > 0 && answer.thinking) {
      this.reasoningMemory.remember(answer.callIds, answer.thinking);
      this.writer.touch();
    }
    this.rememberLayout(modelId, answer.layout);
    // Usage goes one way: the answer's result → accounting → VS Code, once.
    if (answer.usage) onEvent({ kind: 'usage', usage: answer.usage });
    const outcome: RunOutcome = { prepared, truncated: !tried.complete };
    if (answer.usage) outcome.usage = answer.usage;
    if (answer.cost !== undefined) outcome.cost = answer.cost;
    if (cost) outcome.accountedCost = cost;
    return { outcome };
  }

  /** Native items to pass back on later turns, persisted so they survive a restart. */
  private rememberLayout(modelId: string, layout: AssistantLayout | undefined): void {
    if (layout && completeLayout(layout).dropped > 0 && this.noted.first(`incomplete\u0000${modelId}`)) {
      this.deps.log.warn(`[request] ${outsideText(modelId)} returned reasoning or thinking without its encrypted content or signature; it is not passed back (the API would refuse it).`);
    }
    if (this.nativeReplay.remember(layout)) this.writer.touch();
  }

  /**
   * `trusted`: the usage record was consistent (calibration learns only from such records); `reportedUsd`:
   * OpenCode's cost frame; `longCacheWrites`: the body that was sent asked for 1-hour cache writes.
   */
  private account(modelId: string, prepared: PreparedRequest, usage: NormalizedUsage, how: { trusted: boolean; reportedUsd?: number; longCacheWrites: boolean }): RequestCost | undefined {
    const result = accountUsage(this.accounting, modelId, prepared, usage, { learn: how.trusted, reportedUsd: how.reportedUsd, longCacheWrites: how.longCacheWrites, purpose: prepared.purpose });
    if (how.trusted) learnAnswered(this.limitLearning, modelId, usage.contextTokens);
    if (result.calibrated) this.writer.changed(STORE_KEYS.calibrations, () => this.calibrations.toJSON());
    this.writer.changed(STORE_KEYS.states, () => this.states.toJSON());
    this.deps.onAccounted?.(modelId, prepared, usage, result.cost);
    return result.cost;
  }
}
