/**
 * A conversation the request recorder wrote (opencode.recordRequests, replay JSONL) as a report's
 * ConversationLog, so a conversation from before a restart can be opened. The file holds what was sent, not
 * what the endpoint answered: its records are this extension's trim replayed under the settings given (with
 * each request's recorded factor and calibration, so it lands on the live cuts), with the estimator and the
 * exact-prefix cache model (simulate.ts) standing in for the endpoint's usage. The text is read by the same
 * parser and line validator as the replay tool's (core/replay/replayFile.ts), so a bad file is one clear sentence.
 */
import type { Settings } from '../config/settings';
import type { ModelLimits } from '../types';
import type { RecordingMeta } from '../replay/recordingMeta';
import { parseReplayLines, type ReplayRequest } from '../replay/replayFile';
import { SizeMemo } from '../trim/messageSize';
import { oursRunner, replayLimits } from './policies';
import { MAX_RECORDS_PER_CONVERSATION, toRequestRecord, type ConversationLog } from './requestLog';
import { PolicyReplay, type SimRequest } from './simulate';
import { normalizeUsage } from '../routes/chat/chatChunk';
import { type TrimPlan } from '../trim/planTrim';

/** Larger recordings are not read into the window (the replay CLI reads them). */
export const MAX_RECORDING_BYTES = 32 * 1024 * 1024;

export const RECORDED_MODEL = 'recorded';

export type RecordingResult = { ok: true; log: ConversationLog } | { ok: false; reason: string };


/** The settings and limits a recording is replayed with: pinned to its recorded budget when known. */
function replayBasis(settings: Settings, meta: RecordingMeta | undefined): { settings: Settings; limits: ModelLimits } {
  if (!meta) return { settings, limits: {} };
  return {
    settings: { ...settings, budgetOverrideTokens: meta.budget ?? 0, maxRequestBytes: meta.maxBytes ?? 0, reservedOutputTokens: meta.reserve },
    limits: replayLimits(meta),
  };
}

/** Each request's factor: its own, else the nearest earlier one, else 1. */
function factorsFor(count: number, known: readonly (number | null)[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(known[i] ?? out[i - 1] ?? 1);
  return out;
}

/** The records of a recording: our trim replayed request by request, usage from the cache model. */
export function recordedConversationLog(
  sessionId: string,
  requests: readonly ReplayRequest[],
  settings: Settings,
  limits: ModelLimits,
  at: number,
  modelId = RECORDED_MODEL,
  known: Pick<RecordingMeta, 'factors' | 'calibrations'> = { factors: [], calibrations: [] },
): ConversationLog {
  const plans: TrimPlan[] = [];
  const factors = factorsFor(requests.length, known.factors);
  const simRequests: SimRequest[] = requests.map((r, i) => {
    const calibration = known.calibrations[i];
    return { messages: r.messages, tools: r.tools, factor: factors[i], native: r.native, ...(calibration ? { calibration: calibration[0], calibrationSpread: calibration[1] } : {}) };
  });
  const memo = new SizeMemo();
  const replay = new PolicyReplay(oursRunner(settings, limits, memo, (plan) => plans.push(plan)), memo);
  for (const request of simRequests) replay.step(request);
  const records = replay.steps.map((step, i) => {
    const usage = normalizeUsage({ prompt_tokens: step.promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: step.cachedTokens } });
    // The route the request went on, when the recording says (recordings from before `sent` do not).
    const record = toRequestRecord(modelId, plans[i], usage ?? { shape: 'openai', contextTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0, totalTokens: 0 }, at, requests[i].sent?.route);
    return { ...record, sessionId, inputCount: requests[i].messages.length, factor: factors[i] };
  });
  return {
    sessionId,
    modelId,
    records: records.slice(-MAX_RECORDS_PER_CONVERSATION),
    requests: simRequests.slice(-MAX_RECORDS_PER_CONVERSATION),
    added: simRequests.length,
  };
}

/** Parses and validates a recording's text; every problem is a sentence naming the file (and line). */
export function readRecording(fileName: string, text: string, settings: Settings, meta: RecordingMeta | undefined, at: number): RecordingResult {
  let requests: ReplayRequest[];
  try {
    requests = parseReplayLines(text.split('\n'));
  } catch (error) {
    return { ok: false, reason: `${fileName} is not a valid request recording: ${error instanceof Error ? error.message : String(error)}.` };
  }
  if (requests.length === 0) return { ok: false, reason: `${fileName} holds no requests.` };
  const sessionId = fileName.replace(/\.jsonl$/, '');
  const basis = replayBasis(settings, meta);
  return { ok: true, log: { ...recordedConversationLog(sessionId, requests, basis.settings, basis.limits, at, meta?.model, meta), recordedFile: fileName } };
}
