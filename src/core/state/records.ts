/**
 * The validators of everything the extension persists: type and range of each record, the one place these rules
 * live. Used when loading (persisted.ts drops what fails); the memories' fromJSON take what passed as is.
 */
import { CALIBRATION, MAX_SPREAD, type CalibrationRecord } from '../trim/calibration';
import { MIN_LEARNED_LIMIT } from '../trim/learnedLimits';
import { EMPTY_TRIM_STATE, MAX_EXTRA_GRID_MOVES, type ConversationTrimState } from '../trim/conversationState';
import { DROPPABLE_PARAMS, type DroppableParam } from '../request/unsupportedParams';
import type { ModelEntry } from '../types';
import { isRecord } from '../util/isRecord';
import { isNonNegative } from '../util/jsonFields';
import { REASONING_MEMORY_BOUNDS } from '../convert/reasoningMemory';
import { isLayout, type AssistantLayout } from '../routes/nativeReplay';
import { LearnedRoutes } from '../routes/select/learnedRoutes';

/** A context window below this is not a real model's (the same floor as parseContextLimit). */
export const MIN_CONTEXT_WINDOW = MIN_LEARNED_LIMIT;
export const MAX_CONTEXT_WINDOW = 100_000_000;
/** A model refusing more parameters than this is not worth more silent retries. */
export const MAX_DROPPED_PARAMS = 3;

const isCount = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** A session claim: the fingerprint of a conversation's first answer (sessionId.ts). */
export function validSessionClaim(value: unknown): string | undefined {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value) ? value : undefined;
}

const isFactor = (v: unknown): v is number => typeof v === 'number' && v >= CALIBRATION.minFactor && v <= CALIBRATION.maxFactor;

/**
 * A model's calibration: `{factor, spread}`, or a bare factor as versions before the spread was persisted saved
 * it (its spread is 0, learned again). A missing spread is 0; other fields are left out.
 */
export function validCalibration(value: unknown): CalibrationRecord | undefined {
  if (isFactor(value)) return { factor: value, spread: 0 };
  if (!isRecord(value) || !isFactor(value.factor)) return undefined;
  const spread = value.spread === undefined ? 0 : value.spread;
  // `-0 >= 0` holds: a -0 (never in JSON, but a caller may hand over a live object) is the spread 0, stored as +0.
  return typeof spread === 'number' && spread >= 0 && spread <= MAX_SPREAD ? { factor: value.factor, spread: spread === 0 ? 0 : spread } : undefined;
}

export function validContextWindow(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_CONTEXT_WINDOW && value <= MAX_CONTEXT_WINDOW ? value : undefined;
}

export function validReasoning(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= REASONING_MEMORY_BOUNDS.maxChars ? value : undefined;
}

/** A list of distinct parameters we send, at most MAX_DROPPED_PARAMS. */
export function validDroppedParams(value: unknown): DroppableParam[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_DROPPED_PARAMS) return undefined;
  if (!value.every((p) => (DROPPABLE_PARAMS as readonly unknown[]).includes(p)) || new Set(value).size !== value.length) return undefined;
  return value as DroppableParam[];
}

/**
 * The known fields by their own rules; any other field must be a finite non-negative number, so a field added
 * to the trim state later survives a restart.
 */
export function validTrimState(value: unknown): ConversationTrimState | undefined {
  if (!isRecord(value)) return undefined;
  const { lastRemoved, lastSteps, lastGrid, lastInputLength, extraSteps, ...rest } = value;
  if (!isCount(lastRemoved) || !isCount(lastSteps) || !isCount(lastInputLength) || !isCount(extraSteps, MAX_EXTRA_GRID_MOVES)) return undefined;
  if (typeof lastGrid !== 'number' || !Number.isFinite(lastGrid) || lastGrid < 0 || lastRemoved > lastInputLength) return undefined;
  if (!Object.values(rest).every(isNonNegative)) return undefined;
  // Fields a state saved by an older version lacks (the frozen grid, truncation marks) default to "none".
  return { ...EMPTY_TRIM_STATE, ...(rest as Record<string, number>), lastRemoved, lastSteps, lastGrid, lastInputLength, extraSteps };
}

const LIMIT_SOURCES: readonly ModelEntry['limitSource'][] = ['endpoint', 'bundled', 'learned', 'fallback', 'setting', 'unknown'];

export function validModelEntry(value: unknown): ModelEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { id, name, toolCalling, imageInput, limitSource, contextWindow, maxOutputTokens } = value;
  if (typeof id !== 'string' || !id || typeof name !== 'string' || typeof toolCalling !== 'boolean' || typeof imageInput !== 'boolean') return undefined;
  if (!LIMIT_SOURCES.includes(limitSource as ModelEntry['limitSource'])) return undefined;
  const positive = (v: unknown): v is number | undefined => v === undefined || (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_CONTEXT_WINDOW);
  if (!positive(contextWindow) || !positive(maxOutputTokens)) return undefined;
  const entry: ModelEntry = { id, name, toolCalling, imageInput, limitSource: limitSource as ModelEntry['limitSource'] };
  if (contextWindow !== undefined) entry.contextWindow = contextWindow;
  if (maxOutputTokens !== undefined) entry.maxOutputTokens = maxOutputTokens;
  return entry;
}

export interface CachedModelList {
  fetchedAt: number;
  models: ModelEntry[];
}

/** A cached list needs a real fetch time (else it would never be refreshed); bad or duplicate entries are left out. */
export function validModelList(value: unknown): { value?: CachedModelList; dropped: number } {
  if (!isRecord(value) || !Array.isArray(value.models)) return { dropped: 1 };
  const { fetchedAt } = value;
  // A time in the future would keep the list from ever going stale.
  if (typeof fetchedAt !== 'number' || !Number.isFinite(fetchedAt) || fetchedAt < 0 || fetchedAt > Date.now() + 60_000) return { dropped: 1 };
  const seen = new Set<string>();
  const models: ModelEntry[] = [];
  for (const raw of value.models) {
    const entry = validModelEntry(raw);
    if (entry && !seen.has(entry.id)) {
      seen.add(entry.id);
      models.push(entry);
    }
  }
  return { value: { fetchedAt, models }, dropped: value.models.length - models.length };
}

/** A remembered answer layout (Responses reasoning items, Anthropic thinking blocks) for NativeReplayMemory. */
export function validLayout(value: unknown): AssistantLayout | undefined {
  return isLayout(value) ? value : undefined;
}

/** The learned routes record: `{version:1, entries}`; malformed entries are dropped and counted. */
export function validLearnedRoutes(value: unknown): { value?: LearnedRoutes; dropped: number } {
  const learned = LearnedRoutes.fromJSON(value);
  const given = isRecord(value) && Array.isArray(value.entries) ? value.entries.length : 1;
  return { value: learned, dropped: Math.max(0, given - learned.size) };
}
