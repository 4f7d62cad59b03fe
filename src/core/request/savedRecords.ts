/**
 * The validators of what the chat engine persists: type and range of each record, written as valibot schemas
 * (docs/reliability.md "Validating outside data"), beside the engine that loads them (persisted.ts drops what
 * fails; the memories' fromJSON take what passed as is). The model folder keeps its own two (learned limits,
 * the saved model list): the store below never knows a record, so state stays at the bottom of the layers.
 */
import * as v from 'valibot';
import { integer, validator } from '../state/persisted';
import { MAX_PRUNED_RESULTS } from '../trim/pruneResults';
import { DROPPABLE_PARAMS, type DroppableParam } from '../routes/droppableParams';
import { IMAGE_DESCRIPTION_BOUNDS, type ImageDescription } from '../images/imageDescriptions';
import type { AssistantLayout, LayoutSlot } from '../answer/nativeReplay';
import { ROUTE_IDS } from '../routeId';
import { LearnedRoutes } from '../routes/select/learnedRoutes';
import { CALIBRATION, MAX_SPREAD, type CalibrationRecord, EMPTY_TRIM_STATE, MAX_EXTRA_GRID_MOVES, type ConversationTrimState } from '../trim/trimState';
import { isRecord } from '../util/jsonFields';
import { REASONING_MEMORY_BOUNDS } from '../convert/convertRequest';

/** A model refusing more parameters than this is not worth more silent retries. */
export const MAX_REFUSED_PARAMS = 3;


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
