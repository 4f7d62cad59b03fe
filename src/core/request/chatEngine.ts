/**
 * One request end to end, without VS Code: prepare (convert, trim) → attempt (routeTransport.ts streamAnswer) → retry or
 * not (retryPolicy.ts) → account (usage, overflow, calibration). What outlives a request (size memo, calibrations,
 * learned windows, trim states, reasoning, layouts, routes, refused parameters, session claims) is loaded and saved
 * by EngineMemory (engineMemory.ts). One context is resolved per request at its start (RunScope: the settings
 * snapshot, the endpoint); every step of the request reads that one, not the settings again.
 */
import type { Settings } from '../config/settings';
import { completeLayout, type AssistantLayout } from '../answer/nativeReplay';
import { routeById } from '../routes/registry/registry';
import type { RouteId } from '../routeId';
import { mayRetryTooLong } from '../models/learnedLimits';
import type { ModelEntry, NormalizedUsage, StreamEvent } from '../types';
import { accountUsage, type AccountingState, learnAnswered, learnTooLong, type LimitLearning } from './accountUsage';
import { ImageDescriber } from './describeImages';
import type { RequestCost } from '../cost/requestCost';
import { pricesFor } from '../cost/requestCost';
import { OPENCODE_CLIENT, type Endpoint } from './chatTransport';
import { bodyFor, convertForRequest, prepareConverted, type ChatRequest, type PreparedRequest } from './prepareRequest';
import { sentRecord } from '../replay/sentRecord';
import type { WireMessage } from '../wire/wireTypes';
import { failureClass, nextRetryDelayMs, sleep } from './retryPolicy';
import { attemptBody, chooseRoute, learnRoute, RefusedPins, switchedRoute, type RouteSwitch, learnRefusedParam } from './sendBody';
import { retryLine } from './streamLog';
import { redact } from '../util/redact';
import { OnceKeys } from '../util/onceKeys';
import { cancelledError, isContextLengthError, missingKeyError, toUserFacingError } from './userFacingError';
import type { EngineDeps, EngineTiming, RunEnd, RunOutcome, RunScope, SentAttempt } from './engineTypes';
import { EngineMemory, STORE_KEYS } from './engineMemory';
import { feeds } from './purpose';
import { outsideText } from '../util/excerpt';
import { longLivedWrites } from '../routes/requestParts';
import { limitsOf, modelFacts, resolveEntry } from '../models/modelTable';
import { type ListedFields, type ModelFacts, type RouteChoice } from '../models/modelFacts';
import { streamAnswer, type ShownSoFar } from './routeTransport';
import { isLoopbackUrl } from '../config/endpoints';

export type { KeyValueStore } from '../state/persisted';
export type { EngineDeps, EngineTiming, RunOutcome } from './engineTypes';

export class ChatEngine extends EngineMemory {
  /** What the accounting reads and updates: the log, the calibrations and the conversation states. */
  readonly accounting: AccountingState;
  /** Images described for models without image input, remembered by hash (describeImages.ts). */
  readonly describer: ImageDescriber;
  /** Pinned routes (opencode.models api) the gateway refused in this activation, and the route that answered. */
  private readonly refusedPins = new RefusedPins();

  /** The memories are loaded by EngineMemory (engineMemory.ts). */
  constructor(private readonly deps: EngineDeps) {
    super(deps);
    const descriptions = this.descriptions;
    this.describer = new ImageDescriber(descriptions, (request, listed, onEvent, signal) => this.run(request, listed, onEvent, signal), deps.log, () => this.writer.changed(STORE_KEYS.imageDescriptions, () => descriptions.toJSON()));
    this.accounting = { log: deps.log, calibrations: this.calibrations, states: this.states, prices: (modelId) => pricesFor(modelId, deps.settings().catalog) };
  }

  /**
   * What the model table says of a model on this endpoint, with this engine's settings and what the endpoint taught
   * it (learned limits): the one source of model facts for every request and for the picker (models/modelTable.ts).
   */
  factsFor(modelId: string, listed: ListedFields, settings: Settings = this.deps.settings()): ModelFacts {
    return modelFacts(modelId, listed, settings, this.learned.get(modelId));
  }

  /** A listed model as the picker and a request see it (the same lookup as factsFor); `settings`: a snapshot the caller already holds. */
  resolve(listed: ModelEntry, settings: Settings = this.deps.settings()): { entry: ModelEntry; facts: ModelFacts } {
    return resolveEntry(listed, settings, undefined, this.learned.get(listed.id));
  }

  /** The model's route: the opencode.models setting, else learned, else the table for the endpoint, else chat. */
  routeFor(modelId: string, settings: Settings = this.deps.settings(), statedApi?: RouteId): RouteChoice {
    return chooseRoute(modelId, settings, this.routes, this.refusedPins, statedApi);
  }

  /** Trim and body from the request converted once (convertForRequest in attempts()), again after a context-length 400. */
  private prepareFrom(scope: Pick<RunScope, 'request' | 'listed' | 'settings'>, converted: WireMessage[]): PreparedRequest {
    const { request, listed, settings } = scope;
    // The route the endpoint's /models states (a custom endpoint's own word) is tried first, not found by trial.
    const choice = this.routeFor(request.modelId, settings, listed.api);
    const facts = this.factsFor(request.modelId, listed, settings);
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
      route: routeById(choice.route, this.deps.routes),
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
    // Recorded only when the setting is on and the purpose is recorded (purpose.ts): no record is built otherwise.
    if (sent && this.deps.record && settings.recordRequests && feeds(sent.prepared.purpose).recording) this.deps.record(sent.prepared, sentRecord(sent.prepared.route.id, sent.prepared.body, sent.body, [...sent.refused], sent.prepared.trim.native));
    if ('error' in end) throw end.error;
    return end.outcome;
  }

  /** The attempt loop, to its end: the outcome or the error for the user, and what the last attempt sent. */
  private async attempts(scope: RunScope): Promise<RunEnd> {
    const { request, settings, endpoint, signal } = scope;
    const context = { baseUrl: settings.baseUrl, model: request.modelId, apiKey: endpoint.apiKey };
    // Converted once (its [request] lines logged once): a re-trim after a context-length 400 starts from this.
    const converted = await convertForRequest(request, { reasoningMemory: this.reasoningMemory, log: this.deps.log });
    let prepared = this.prepareFrom(scope, converted);
    const switches: RouteSwitch[] = [];
    const refused: string[] = [];
    let sent: SentAttempt | undefined;
    let contextRetries = 0;
    let guessed = false;
    let badAnswerRetries = 0;
    for (let attempt = 1; ; attempt++) {
      this.deps.onAttempt?.(prepared);
      const modelRefused = this.refusedParams[request.modelId] ?? [];
      sent = { prepared, body: attemptBody(prepared, settings, modelRefused), refused: [...refused], modelRefused };
      const tried = await this.attempt(scope, sent);
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
      const refusedNow = learnRefusedParam(this.refusedParams, request.modelId, error, this.deps.log, () => this.writer.changed(STORE_KEYS.refusedParams, () => this.refusedParams));
      if (refusedNow) {
        refused.push(refusedNow);
        continue;
      }
      if (isContextLengthError(error) && mayRetryTooLong(contextRetries, guessed)) {
        contextRetries++;
        ({ prepared, guessed } = this.retrimAfterContextError(scope, converted, (error as Error).message, prepared));
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

  private get timing(): EngineTiming {
    return { sleep, random: Math.random, ...this.deps.timing };
  }

  /** What learning a model's limits works with (accountUsage.ts). */
  private get limitLearning(): LimitLearning {
    return { learned: this.learned, states: this.states, log: this.deps.log, save: () => this.writer.changed(STORE_KEYS.learned, () => this.learned.toJSON()), changed: () => this.deps.onLimitsChanged?.() };
  }

  /** Learns from a "too long" refusal and prepares the request again, on the route that answered so (a route switched to in this request is not learned yet). */
  private retrimAfterContextError(scope: RunScope, converted: WireMessage[], message: string, refused: PreparedRequest): { prepared: PreparedRequest; guessed: boolean } {
    const { guessed } = learnTooLong(this.limitLearning, scope.request.modelId, message, refused);
    const retrimmed = this.prepareFrom(scope, converted);
    return { prepared: retrimmed.route.id === refused.route.id ? retrimmed : bodyFor(retrimmed, refused.route), guessed };
  }

  /** One attempt, its usage accounted once whatever happened; on an answer, the reasoning memory, the layout, and the usage reported last. */
  private async attempt(scope: RunScope, sent: SentAttempt): Promise<{ outcome: RunOutcome } | { error: unknown; shown: ShownSoFar }> {
    const { endpoint, settings, onEvent, signal } = scope;
    const { prepared, body } = sent;
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
    const cost = answer.usage ? this.account(settings, modelId, sent, answer.usage, { trusted: !answer.usageAnomaly, reportedUsd: answer.cost, longCacheWrites: longLivedWrites(body) }) : undefined;
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
  private account(settings: Settings, modelId: string, sent: SentAttempt, usage: NormalizedUsage, how: { trusted: boolean; reportedUsd?: number; longCacheWrites: boolean }): RequestCost | undefined {
    const { prepared } = sent;
    // Priced from the request's own settings snapshot (its endpoint's catalogue), not the settings read again.
    const accounting: AccountingState = { ...this.accounting, prices: (id) => pricesFor(id, settings.catalog) };
    const result = accountUsage(accounting, modelId, prepared, usage, { learn: how.trusted, reportedUsd: how.reportedUsd, longCacheWrites: how.longCacheWrites, purpose: prepared.purpose });
    if (how.trusted) learnAnswered(this.limitLearning, modelId, usage.contextTokens);
    if (result.calibrated) this.writer.changed(STORE_KEYS.calibrations, () => this.calibrations.toJSON());
    this.writer.changed(STORE_KEYS.states, () => this.states.toJSON());
    // The hooks get what was sent as data (the warming re-sends that body): nothing calls back up into the engine.
    this.deps.onAccounted?.(modelId, prepared, usage, result.cost, sent);
    return result.cost;
  }
}
