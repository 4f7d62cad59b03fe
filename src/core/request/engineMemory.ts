/**
 * What the chat engine remembers across requests — size memo, calibrations, learned windows, per-conversation trim
 * state, remembered reasoning, native replay layouts, learned routes, refused parameters and session claims — loaded
 * once when the engine is built, each record through its validator (savedRecords.ts; invalid records are dropped
 * with one WARN), and saved by the one debounced writer (state/stateWriter.ts). Runs at construction only: a
 * request reads and updates these memories through the engine (chatEngine.ts).
 */
import { loadChunked } from '../state/chunkedMap';
import { PersistedStore, type KeyValueStore } from '../state/persisted';
import { StateWriter, WRITE_DELAY_MS } from '../state/stateWriter';
import { validCalibration, validImageDescription, validRefusedParams, validLayout, validLearnedRoutes, validReasoning, validSessionClaim, validTrimState } from './savedRecords';
import { LearnedLimits, validLearnedLimit } from '../models/learnedLimits';
import { NATIVE_REPLAY_BOUNDS, NativeReplayMemory } from '../answer/nativeReplay';
import { LearnedRoutes } from '../routes/select/learnedRoutes';
import { MAX_SESSION_CLAIMS, SessionIds } from '../session/sessionId';
import { SizeMemo } from '../trim/messageSize';
import { IMAGE_DESCRIPTION_BOUNDS, ImageDescriptions } from '../images/imageDescriptions';
import type { Logger } from '../log';
import { Calibrations, ConversationStates, TRIM_STATE_CAPACITY } from '../trim/trimState';
import { REASONING_MEMORY_BOUNDS, ReasoningMemory } from '../convert/convertRequest';
import { MAX_MODELS } from '../util/boundedMap';

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

export interface MemoryDeps {
  log: Logger;
  store: KeyValueStore;
  memo?: SizeMemo;
  sessionScope?: string;
  timing?: { stateWriteDelayMs?: number };
}

/** The engine's memories, loaded; the engine (chatEngine.ts) extends this with what a request does with them. */
export abstract class EngineMemory {
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
  /** Parameters each model refused (sendBody.ts). */
  readonly refusedParams: Record<string, string[]>;
  /** Images described for models without image input, by hash (describeImages.ts). */
  protected readonly descriptions: ImageDescriptions;
  /** The one writer of this engine's saved state: debounced, only what changed (state/stateWriter.ts). */
  protected readonly writer: StateWriter;

  constructor(deps: MemoryDeps) {
    const store = new PersistedStore(deps.store, deps.log);
    this.memo = deps.memo ?? new SizeMemo();
    const load = <V>(key: string, validate: (value: unknown) => V | undefined, capacity = MAX_MODELS) => Object.fromEntries(store.loadMap(key, validate, capacity));
    this.calibrations = Calibrations.fromJSON(load(STORE_KEYS.calibrations, validCalibration));
    this.learned = LearnedLimits.fromJSON(load(STORE_KEYS.learned, validLearnedLimit));
    this.states = ConversationStates.fromJSON(load(STORE_KEYS.states, validTrimState, TRIM_STATE_CAPACITY));
    this.writer = new StateWriter(store, deps.timing?.stateWriteDelayMs ?? WRITE_DELAY_MS);
    // The two large memories are saved in chunks: one answer rewrites only what it changed (state/chunkedMap.ts).
    this.reasoningMemory = new ReasoningMemory();
    this.writer.chunkedChanged(loadChunked(store, STORE_KEYS.reasoningMemory, this.reasoningMemory, validReasoning, REASONING_MEMORY_BOUNDS.maxEntries), this.reasoningMemory);
    this.refusedParams = load(STORE_KEYS.refusedParams, validRefusedParams);
    // The newest maxEntries in saved order; the memory then applies the character bound the same way.
    this.nativeReplay = new NativeReplayMemory();
    this.writer.chunkedChanged(loadChunked(store, STORE_KEYS.nativeReplay, this.nativeReplay, validLayout, NATIVE_REPLAY_BOUNDS.maxEntries), this.nativeReplay);
    this.routes = store.loadValue(STORE_KEYS.routes, validLearnedRoutes) ?? new LearnedRoutes();
    const claims = store.loadMap(STORE_KEYS.sessionClaims, validSessionClaim, MAX_SESSION_CLAIMS);
    this.sessionIds = SessionIds.fromEntries(claims, () => this.writer.changed(STORE_KEYS.sessionClaims, () => this.sessionIds.toJSON()), deps.sessionScope);
    this.descriptions = ImageDescriptions.fromJSON(load(STORE_KEYS.imageDescriptions, validImageDescription, IMAGE_DESCRIPTION_BOUNDS.maxEntries));
  }

  /** Writes every pending change of the saved state now (deactivate, an endpoint let go). */
  flushState(): Promise<void> {
    return this.writer.flush();
  }
}
