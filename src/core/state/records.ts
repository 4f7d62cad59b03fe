/**
 * The validators of everything the extension persists: type and range of each record, the one place these rules
 * live, written as valibot schemas (docs/reliability.md "Validating outside data"). Used when loading (persisted.ts
 * drops what fails); the memories' fromJSON take what passed as is.
 */
import * as v from 'valibot';
import { CALIBRATION, MAX_SPREAD, type CalibrationRecord } from '../trim/calibration';
import { EMPTY_TRIM_STATE, MAX_EXTRA_GRID_MOVES, type ConversationTrimState } from '../trim/conversationState';
import { MAX_PRUNED_RESULTS } from '../trim/pruneResults';
import { DROPPABLE_PARAMS, type DroppableParam } from '../routes/droppableParams';
import type { ModelEntry } from '../types';
import { isRecord } from '../util/isRecord';
import { MAX_TOKEN_LIMIT } from '../util/tokenLimit';
import { REASONING_MEMORY_BOUNDS } from '../convert/reasoningMemory';
import { IMAGE_DESCRIPTION_BOUNDS, type ImageDescription } from '../images/imageDescriptions';
import type { AssistantLayout, LayoutSlot } from '../answer/nativeReplay';
import { ROUTE_IDS } from '../routeId';
import { LearnedRoutes } from '../routes/select/learnedRoutes';

/** No real model has a smaller window: a smaller number in an error (parseContextLimit) or in saved state is not a window. */
export const MIN_CONTEXT_WINDOW = 1_000;
/** The one bound (util/tokenLimit.ts): the /models fetch clamps to it, so a saved list never fails this check. */
export const MAX_CONTEXT_WINDOW = MAX_TOKEN_LIMIT;
/** A model refusing more parameters than this is not worth more silent retries. */
export const MAX_REFUSED_PARAMS = 3;

/** A schema as a Validate (persisted.ts): the parsed value, or undefined when the record must be dropped. Never throws. */
function validator<T>(schema: v.GenericSchema<unknown, T>): (value: unknown) => T | undefined {
  return (value) => {
    const result = v.safeParse(schema, value);
    return result.success ? result.output : undefined;
  };
}

const integer = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const count = (max = Number.MAX_SAFE_INTEGER) => integer(0, max);
const nonNegative = v.pipe(v.number(), v.finite(), v.minValue(0));
const factor = v.pipe(v.number(), v.minValue(CALIBRATION.minFactor), v.maxValue(CALIBRATION.maxFactor));
// `-0 >= 0` holds: a -0 (never in JSON, but a caller may hand over a live object) is the spread 0, stored as +0.
const spread = v.pipe(v.number(), v.minValue(0), v.maxValue(MAX_SPREAD), v.transform((s) => (s === 0 ? 0 : s)));

/** An image's description (images/imageDescriptions.ts): the describing model and its words, each within the bounds. */
export const validImageDescription = validator<ImageDescription>(
  v.object({
    model: v.pipe(v.string(), v.minLength(1), v.maxLength(IMAGE_DESCRIPTION_BOUNDS.maxModelChars)),
    text: v.pipe(v.string(), v.minLength(1), v.maxLength(IMAGE_DESCRIPTION_BOUNDS.maxTextChars)),
  }),
);

/** A session claim: the fingerprint of a conversation's first answer (sessionId.ts). */
export const validSessionClaim = validator(v.pipe(v.string(), v.regex(/^[0-9a-f]{24}$/)));

/**
 * A model's calibration: `{factor, spread}`, or a bare factor as versions before the spread was persisted saved
 * it (its spread is 0, learned again). A missing spread is 0; other fields are left out.
 */
export const validCalibration = validator<CalibrationRecord>(
  v.union([v.pipe(factor, v.transform((f) => ({ factor: f, spread: 0 }))), v.object({ factor, spread: v.optional(spread, 0) })]),
);

export const validContextWindow = validator(integer(MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW));

/**
 * What an endpoint taught about one model's limits (models/learnedLimits.ts): the window its error named, the
 * smallest prompt it refused as too long without naming one, the input ceiling the trim aims under since, and the
 * largest prompt it accepted. Prompt sizes are in the endpoint's tokens.
 */
export interface LearnedLimitRecord {
  window?: number;
  refused?: number;
  ceiling?: number;
  fits?: number;
}

const limitField = v.optional(integer(MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW));

/**
 * A learned limit: a bare number is a window (as versions before refusals without a number saved it), else the
 * record; a ceiling only with the refusal it stays below, and below it. Unknown fields are left out.
 */
export const validLearnedLimit = validator<LearnedLimitRecord>(
  v.union([
    v.pipe(integer(MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW), v.transform((window) => ({ window }))),
    v.pipe(
      v.object({ window: limitField, refused: limitField, ceiling: limitField, fits: v.optional(integer(1, MAX_CONTEXT_WINDOW)) }),
      v.check((r) => (r.ceiling === undefined) === (r.refused === undefined) && (r.ceiling === undefined || r.ceiling < (r.refused ?? 0))),
      v.check((r) => Object.values(r).some((value) => value !== undefined)),
      v.transform((r) => Object.fromEntries(Object.entries(r).filter(([, value]) => value !== undefined)) as LearnedLimitRecord),
    ),
  ]),
);

export const validReasoning = validator(v.pipe(v.string(), v.minLength(1), v.maxLength(REASONING_MEMORY_BOUNDS.maxChars)));

/** A list of distinct parameters we send, at most MAX_REFUSED_PARAMS. */
export const validRefusedParams = validator<DroppableParam[]>(
  v.pipe(v.array(v.picklist(DROPPABLE_PARAMS)), v.maxLength(MAX_REFUSED_PARAMS), v.check((list) => new Set(list).size === list.length)),
);

/**
 * The known fields by their own rules; any other field must be a finite non-negative number, so a field added
 * to the trim state later survives a restart. Fields a state saved by an older version lacks (the frozen grid,
 * truncation marks) default to "none".
 */
export const validTrimState = validator<ConversationTrimState>(
  v.pipe(
    v.objectWithRest(
      { lastRemoved: count(), lastSteps: count(), lastGrid: nonNegative, lastInputLength: count(), extraSteps: count(MAX_EXTRA_GRID_MOVES), prunedAt: v.optional(v.pipe(v.array(count()), v.maxLength(MAX_PRUNED_RESULTS))) },
      nonNegative,
    ),
    v.check((state) => state.lastRemoved <= state.lastInputLength),
    // Pruned results: ascending, distinct, inside the history the state was recorded for.
    v.check((state) => (state.prunedAt ?? []).every((i, k, all) => i < state.lastInputLength && (k === 0 || all[k - 1] < i))),
    v.transform((state) => ({ ...EMPTY_TRIM_STATE, ...state })),
  ),
);

const LIMIT_SOURCES = ['endpoint', 'bundled', 'learned', 'fallback', 'setting', 'unknown'] as const satisfies readonly ModelEntry['limitSource'][];
const tokenLimit = v.optional(integer(1, MAX_CONTEXT_WINDOW));

/** A cached model entry: its known fields only (others are left out). */
export const validModelEntry = validator<ModelEntry>(
  v.object({ id: v.pipe(v.string(), v.minLength(1)), name: v.string(), toolCalling: v.boolean(), imageInput: v.boolean(), limitSource: v.picklist(LIMIT_SOURCES), contextWindow: tokenLimit, maxOutputTokens: tokenLimit, api: v.optional(v.picklist(ROUTE_IDS)) }),
);

export interface CachedModelList {
  fetchedAt: number;
  models: ModelEntry[];
}

// A time in the future would keep the list from ever going stale.
const listShape = v.object({ fetchedAt: v.pipe(nonNegative, v.check((t) => t <= Date.now() + 60_000)), models: v.array(v.unknown()) });

/** A cached list needs a real fetch time (else it would never be refreshed); bad or duplicate entries are left out. */
export function validModelList(value: unknown): { value?: CachedModelList; dropped: number } {
  const list = v.safeParse(listShape, value);
  if (!list.success) return { dropped: 1 };
  const seen = new Set<string>();
  const models: ModelEntry[] = [];
  for (const raw of list.output.models) {
    const entry = validModelEntry(raw);
    if (entry && !seen.has(entry.id)) {
      seen.add(entry.id);
      models.push(entry);
    }
  }
  return { value: { fetchedAt: list.output.fetchedAt, models }, dropped: list.output.models.length - models.length };
}

/** A slot keeps its other fields as saved (a native item is passed back verbatim). */
const slot: v.GenericSchema<unknown, LayoutSlot> = v.variant('kind', [
  v.looseObject({ kind: v.literal('text') }),
  v.looseObject({ kind: v.literal('call'), callId: v.string() }),
  v.looseObject({ kind: v.literal('native'), item: v.record(v.string(), v.unknown()) }),
]);

/** A remembered answer layout (Responses reasoning items, Anthropic thinking blocks) for NativeReplayMemory. */
export const validLayout = validator<AssistantLayout>(v.looseObject({ route: v.picklist(ROUTE_IDS), slots: v.array(slot) }));

/** The learned routes record: `{version:1, entries}`; malformed entries are dropped and counted. */
export function validLearnedRoutes(value: unknown): { value?: LearnedRoutes; dropped: number } {
  const learned = LearnedRoutes.fromJSON(value);
  const given = isRecord(value) && Array.isArray(value.entries) ? value.entries.length : 1;
  return { value: learned, dropped: Math.max(0, given - learned.size) };
}
