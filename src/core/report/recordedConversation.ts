/**
 * A conversation the request recorder wrote (opencode.recordRequests, replay JSONL) as a report's
 * ConversationLog, so a conversation from before a restart can be opened. The file holds what was sent, not
 * what the endpoint answered: its records are this extension's trim replayed under the settings given, with
 * the estimator and the exact-prefix cache model (simulate.ts) standing in for the endpoint's usage. The
 * text is read by the replay tool's own parser and line validator, so a bad file is one clear sentence.
 */
import type { Settings } from '../config/settings';
import type { ModelLimits } from '../types';
import type { TrimPlan } from '../request/prepareRequest';
import { normalizeUsage } from '../usage/normalizeUsage';
import { parseReplayLines, type ReplayRequest } from '../../replay/replayFile';
import { oursRunner } from './policies';
import { MAX_RECORDS_PER_CONVERSATION, toRequestRecord, type ConversationLog } from './requestLog';
import { simulate } from './simulate';

/** Larger recordings are not read into the window (the replay CLI reads them). */
export const MAX_RECORDING_BYTES = 32 * 1024 * 1024;

export const RECORDED_MODEL = 'recorded';

export type RecordingResult = { ok: true; log: ConversationLog } | { ok: false; reason: string };

/** The records of a recording: our trim replayed request by request, usage from the cache model. */
export function recordedConversationLog(sessionId: string, requests: readonly ReplayRequest[], settings: Settings, limits: ModelLimits, at: number): ConversationLog {
  const plans: TrimPlan[] = [];
  const steps = simulate(requests.map((r) => ({ messages: r.messages, tools: r.tools, factor: 1 })), oursRunner(settings, limits, (plan) => plans.push(plan)));
  const records = steps.map((step, i) => {
    const usage = normalizeUsage({ prompt_tokens: step.promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: step.cachedTokens } });
    const record = toRequestRecord(RECORDED_MODEL, plans[i], usage ?? { shape: 'openai', contextTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0, totalTokens: 0 }, at);
    return { ...record, sessionId, inputCount: requests[i].messages.length, factor: 1 };
  });
  const last = requests[requests.length - 1];
  return {
    sessionId,
    modelId: RECORDED_MODEL,
    records: records.slice(-MAX_RECORDS_PER_CONVERSATION),
    input: last?.messages ?? [],
    tools: last?.tools ?? [],
  };
}

/** Parses and validates a recording's text; every problem is a sentence naming the file (and line). */
export function readRecording(fileName: string, text: string, settings: Settings, limits: ModelLimits, at: number): RecordingResult {
  let requests: ReplayRequest[];
  try {
    requests = parseReplayLines(text.split('\n'));
  } catch (error) {
    return { ok: false, reason: `${fileName} is not a valid request recording: ${error instanceof Error ? error.message : String(error)}.` };
  }
  if (requests.length === 0) return { ok: false, reason: `${fileName} holds no requests.` };
  const sessionId = fileName.replace(/\.jsonl$/, '');
  return { ok: true, log: { ...recordedConversationLog(sessionId, requests, settings, limits, at), recordedFile: fileName } };
}
