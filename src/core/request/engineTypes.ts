/**
 * The engine's types: what it is built with (EngineDeps, EngineTiming), what run() works with (RunScope), what
 * its attempts end with (RunEnd, SentAttempt) and what it returns (RunOutcome).
 */
import type { Settings } from '../config/settings';
import type { RequestCost } from '../cost/requestCost';
import type { Logger } from '../log';
import type { SentRecord } from '../replay/sentRecord';
import type { KeyValueStore } from '../state/persisted';
import type { SizeMemo } from '../trim/messageSize';
import type { NormalizedUsage, StreamEvent } from '../types';
import type { Endpoint } from './chatTransport';
import type { ChatRequest, PreparedRequest } from './prepareRequest';
import type { DescribeTally } from './describeImages';
import type { RouteRegistry } from '../routes/registry/registry';
import { type ListedFields } from '../models/modelFacts';

export interface EngineDeps {
  log: Logger;
  store: KeyValueStore;
  settings: () => Settings;
  apiKey: () => Promise<string | undefined>;
  /** Message sizes, shared by every endpoint's engine and the report (a new one when absent). */
  memo?: SizeMemo;
  /** Set on every endpoint but the default: its id, mixed into conversation ids (docs/endpoints.md). */
  sessionScope?: string;
  /** Tells the user something once (a notification): a setting the endpoint contradicts. */
  notify?: (message: string) => void;
  /** Called when a learned limit (a window named, a ceiling from a refusal, its revision) changes what VS Code should be told about a model. */
  onLimitsChanged?: () => void;
  /** Called after each answer's usage is accounted (feeds the session report's request log). */
  /**
   * `cost`: the request's dollars (reported or computed, core/cost/requestCost.ts), when known; `sent`: what the
   * accounted attempt sent (its body as it went out, the parameters the model refused), for a hook that re-sends it.
   */
  onAccounted?: (modelId: string, prepared: PreparedRequest, usage: NormalizedUsage, cost: RequestCost | undefined, sent: SentAttempt) => void;
  /**
   * Called once per request whose images were described for it (describeImages.ts), after its last attempt: the
   * conversation's id and the describing requests' count and dollars (the session report counts them apart).
   */
  onDescribed?: (sessionId: string, tally: DescribeTally) => void;
  /**
   * Called once per request (not per attempt), after its last attempt, to record it — only when opencode.recordRequests
   * is on and the request's purpose is recorded (purpose.ts): the
   * prepared request that attempt sent and what it finally sent (effort, quirks, refused parameters applied).
   */
  record?: (prepared: PreparedRequest, sent: SentRecord) => void;
  /** Called with each attempt's prepared request, retries included, before sendBody applies effort, quirks and refused parameters (tests observe it). */
  onAttempt?: (prepared: PreparedRequest) => void;
  /** Waiting and jitter between attempts, and the idle timeout; real ones unless a test injects its own. */
  timing?: Partial<EngineTiming>;
  /** The routes a model's route id is looked up in (routes/registry/registry.ts); the shipped ones when absent. */
  routes?: RouteRegistry;
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
  /**
   * How long saved state waits before it is written (state/stateWriter.ts WRITE_DELAY_MS); 0 writes at each change,
   * so a test reads it at once. Never set by the extension.
   */
  stateWriteDelayMs?: number;
}


/** What one run() works with (attempts()). */
export interface RunScope {
  request: ChatRequest;
  /** The endpoint's own `/models` fields for the model; the engine resolves them through the model table. */
  listed: ListedFields;
  settings: Settings;
  endpoint: Endpoint;
  onEvent: (event: StreamEvent) => void;
  signal: AbortSignal;
}

/** What one attempt sent: its prepared request, the body as it went out, and the parameters refused before it. */
export interface SentAttempt {
  prepared: PreparedRequest;
  body: Record<string, unknown>;
  /** Refused during this request (the recording names them). */
  refused: readonly string[];
  /** Every parameter the model refused so far, left out of this body (a warming body must not put one back). */
  modelRefused: readonly string[];
}

export interface RunOutcome {
  usage?: NormalizedUsage;
  /** OpenCode's cost of this request in US dollars, from its cost frame after the stream (absent when none came). */
  cost?: number;
  /** The request's dollars as accounted (reported or computed from prices), when known. */
  accountedCost?: RequestCost;
  prepared: PreparedRequest;
  /** The answer may be incomplete (cut after content was shown, or no finish reason and no [DONE]); what arrived was kept. */
  truncated: boolean;
}

/** How a run's attempts ended: the outcome or the error for the user, and what the last attempt sent (for the recording). */
export type RunEnd = { sent?: SentAttempt } & ({ outcome: RunOutcome } | { error: unknown });
