/**
 * Faults a real gateway has shown, each a tiny pure function from its parameters to a plan the server
 * carries out. Select one per request with `x-fake-fault: NAME` (or a JSON FaultSpec) or queue them.
 */
import { FAULT_NAMES, type FaultName, type FaultSpec, type ScriptedReply } from './types';
import * as errors from './errors';
import type { ErrorReply } from './errors';

/** What the fault needs to know about the request it spoils. */
export interface FaultInput {
  /** The default reply text for this request, for faults that reshape an ordinary answer. */
  defaultText: string;
  promptTokens: number;
  contextWindow: number;
}

/**
 * Stop after `afterDeltas` frames, then: drop the connection; go quiet for `ms` and resume; send the route's frames
 * that add nothing (empty deltas, usage-only frames, pings) every `everyMs` for `ms`, then resume; or send the
 * route's mid-stream provider error (faultFrames.ts) and end the stream.
 */
export type StreamInterruption =
  | { afterDeltas: number; then: 'destroy' }
  | { afterDeltas: number; then: 'stall'; ms: number }
  | { afterDeltas: number; then: 'nothing'; everyMs: number; ms: number }
  | { afterDeltas: number; then: 'error' };

/** After the last frame: keep the connection open for `ms` (then end it), or destroy it. */
export type StreamEnding = { then: 'hold'; ms: number } | { then: 'destroy' };

export interface StreamShape {
  malformedAfterDeltas?: number;
  omitFinishAndDone?: boolean;
  /** Send the finish reason and usage, but no `[DONE]`. */
  omitDone?: boolean;
  /** Send the usage chunk right after the first delta (gateways that report usage early). */
  usageFirst?: boolean;
  /** Usage in two frames: all but the output count, then a frame with only the output count. */
  splitUsage?: boolean;
  /** Answer a streaming request with one JSON completion (200, application/json). */
  asJson?: boolean;
  ending?: StreamEnding;
  /** Send `[DONE]` and nothing else. */
  onlyDone?: boolean;
  interruption?: StreamInterruption;
}

export type FaultPlan =
  | ({ kind: 'http-error' } & ErrorReply)
  | { kind: 'destroy-socket' }
  /** Answer normally but with this reply (when given, replacing the scripted/default one) and stream shape. */
  | { kind: 'reply'; reply?: ScriptedReply; shape?: StreamShape };

type FaultFunction = (spec: FaultSpec, input: FaultInput) => FaultPlan;

function numberParam(spec: FaultSpec, name: string, fallback: number): number {
  const value = Number(spec[name]);
  return spec[name] !== undefined && Number.isFinite(value) ? value : fallback;
}

const httpError = (reply: ErrorReply): FaultPlan => ({ kind: 'http-error', ...reply });

/** Arguments long enough to span several 8-character chunks. */
const SAMPLE_TOOL_ARGUMENTS = '{"path":"src/extension.ts","startLine":1,"endLine":200}';

const FAULTS: Record<FaultName, FaultFunction> = {
  'status-429': (spec) => httpError(errors.rateLimited(numberParam(spec, 'seconds', 1))),
  'status-500': () => httpError(errors.serverError(500)),
  'status-502': () => httpError(errors.serverError(502)),
  'status-503': () => httpError(errors.serverError(503)),
  'status-401': () => httpError(errors.invalidApiKey()),
  'reset-before-first-byte': () => ({ kind: 'destroy-socket' }),
  'cut-after-text': (spec, input) => ({
    kind: 'reply',
    reply: { text: input.defaultText },
    shape: { interruption: { afterDeltas: numberParam(spec, 'afterChunks', 3), then: 'destroy' } },
  }),
  // Header delta plus two argument chunks: the arguments stop mid-JSON.
  'cut-in-tool-call': (spec) => ({
    kind: 'reply',
    reply: { toolCalls: [{ name: 'read_file', arguments: SAMPLE_TOOL_ARGUMENTS }] },
    shape: { interruption: { afterDeltas: numberParam(spec, 'afterChunks', 3), then: 'destroy' } },
  }),
  stall: (spec) => ({
    kind: 'reply',
    shape: { interruption: { afterDeltas: numberParam(spec, 'afterChunks', 1), then: 'stall', ms: numberParam(spec, 'ms', 60_000) } },
  }),
  // The route's own do-nothing frames after `afterChunks` frames: the idle timeout must still fire.
  'empty-deltas': (spec) => ({
    kind: 'reply',
    shape: { interruption: { afterDeltas: numberParam(spec, 'afterChunks', 1), then: 'nothing', everyMs: numberParam(spec, 'everyMs', 100), ms: numberParam(spec, 'ms', 60_000) } },
  }),
  // Anthropic's `overloaded_error` (each route's equivalent) after `afterChunks` frames of an ordinary answer.
  'error-after-text': (spec, input) => ({
    kind: 'reply',
    reply: { text: input.defaultText },
    shape: { interruption: { afterDeltas: numberParam(spec, 'afterChunks', 3), then: 'error' } },
  }),
  'malformed-chunk': (spec) => ({ kind: 'reply', shape: { malformedAfterDeltas: numberParam(spec, 'afterChunks', 2) } }),
  'no-done': () => ({ kind: 'reply', shape: { omitFinishAndDone: true } }),
  'reasoning-only': (_spec, input) => ({ kind: 'reply', reply: { reasoning: input.defaultText } }),
  'invalid-tool-json': () => ({
    kind: 'reply',
    reply: { toolCalls: [{ name: 'read_file', arguments: '{"path": "src/extension.ts", "startLine": }' }] },
  }),
  'think-tags': (_spec, input) => ({
    kind: 'reply',
    reply: { text: `<think>The user wants an answer; keep it short.</think>${input.defaultText}` },
  }),
  'empty-stream': () => ({ kind: 'reply', reply: { text: '' }, shape: { onlyDone: true } }),
  'context-length-400': (spec, input) =>
    httpError(errors.contextLengthExceeded(numberParam(spec, 'limit', input.contextWindow), input.promptTokens)),
  'missing-session-400': () => httpError(errors.missingSession()),
  'hold-after-done': (spec) => ({ kind: 'reply', shape: { ending: { then: 'hold', ms: numberParam(spec, 'ms', 60_000) } } }),
  'reset-after-done': () => ({ kind: 'reply', shape: { ending: { then: 'destroy' } } }),
  'hold-after-usage': (spec) => ({ kind: 'reply', shape: { omitDone: true, ending: { then: 'hold', ms: numberParam(spec, 'ms', 60_000) } } }),
  'reset-after-usage': () => ({ kind: 'reply', shape: { omitDone: true, ending: { then: 'destroy' } } }),
  // Usage after the first delta, then `afterChunks` more frames and a dropped connection; `thinking: true` sends
  // the text as reasoning, so only thinking was shown when the connection drops.
  'usage-then-cut': (spec, input) => ({
    kind: 'reply',
    reply: spec.thinking === true ? { reasoning: input.defaultText } : { text: input.defaultText },
    shape: { usageFirst: true, interruption: { afterDeltas: numberParam(spec, 'afterChunks', 3) + 1, then: 'destroy' } },
  }),
  'split-usage': () => ({ kind: 'reply', shape: { splitUsage: true } }),
  'json-completion': () => ({ kind: 'reply', shape: { asJson: true } }),
  'json-error-200': () => httpError(errors.errorInOkBody()),
  'html-502': () => httpError(errors.htmlBadGateway()),
  'unsupported-param-400': (spec) => httpError(errors.unsupportedParameter(typeof spec.param === 'string' ? spec.param : 'temperature')),
};

export function isFaultName(value: unknown): value is FaultName {
  return typeof value === 'string' && (FAULT_NAMES as readonly string[]).includes(value);
}

export function planFault(spec: FaultSpec, input: FaultInput): FaultPlan {
  return FAULTS[spec.name](spec, input);
}

/** Accepts a bare fault name or a JSON FaultSpec; throws with a readable message otherwise. */
export function parseFaultSpec(raw: unknown): FaultSpec {
  let candidate: unknown = raw;
  if (typeof raw === 'string') candidate = raw.trim().startsWith('{') ? JSON.parse(raw) : { name: raw.trim() };
  const name = (candidate as { name?: unknown } | null)?.name;
  if (!isFaultName(name)) throw new Error(`Unknown fault ${JSON.stringify(name)}; known: ${FAULT_NAMES.join(', ')}`);
  return candidate as FaultSpec;
}
