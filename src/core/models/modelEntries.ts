/**
 * The model table's facts as the entries the picker and the engine use: one entry per model, its limits and
 * capabilities resolved by the table (modelTable.ts), the endpoint's own `/models` fields as the listed part, what
 * the endpoint's refusals taught (learnedLimits.ts) applied by the same lookup. Every request (chat, inline, commit)
 * and the picker get their limits from here, through the endpoint's engine (ChatEngine.resolve).
 */
import type { ModelEntry, ModelLimits } from '../types';
import type { LearnedLimit } from './learnedLimits';
import type { EndpointCatalog } from './modelData';
import type { ModelOverride } from './modelOverrides';
import { MODEL_TABLE, type FactSource, type ListedFields, type ModelFacts, type ModelTable } from './modelTable';

/** The settings the model facts read (structurally a part of config's Settings; models never imports config). */
export interface ModelSettings {
  catalog?: EndpointCatalog;
  models?: Readonly<Record<string, ModelOverride>>;
  showFreeModels?: boolean;
}

const LIMIT_SOURCES: Partial<Record<FactSource, ModelEntry['limitSource']>> = { setting: 'setting', learned: 'learned', live: 'bundled', snapshot: 'bundled', endpoint: 'endpoint', estimate: 'estimated', fallback: 'fallback' };

/** Before the endpoint has listed anything (no key yet): the ids the data lists for its catalogue. */
export function dataEntries(catalog: EndpointCatalog | undefined, table: ModelTable = MODEL_TABLE): ModelEntry[] {
  if (!catalog) return [];
  return table.ids(catalog).map((id) => ({ id, name: id, toolCalling: true, imageInput: false, limitSource: 'unknown' }));
}

/** What the endpoint's own `/models` entry said, as the table's listed fields (an image flag it did not set is unknown). */
export function listedFields(listed: Partial<ModelEntry> | ListedFields): ListedFields {
  return { name: listed.name, contextWindow: listed.contextWindow, maxOutputTokens: listed.maxOutputTokens, toolCalling: listed.toolCalling, imageInput: listed.imageInput || undefined, ...(listed.api ? { api: listed.api } : {}) };
}

/** The facts of one model on an endpoint: the table's lookup with the endpoint's settings and what its engine learned. */
export function modelFacts(modelId: string, listed: ListedFields, settings: Pick<ModelSettings, 'catalog' | 'models'>, learned?: LearnedLimit, table: ModelTable = MODEL_TABLE): ModelFacts {
  return table.lookup({ modelId, catalog: settings.catalog, override: settings.models?.[modelId], listed: listedFields(listed), learned });
}

/** The limits a request is trimmed to, from the facts. */
export function limitsOf(facts: ModelFacts): ModelLimits {
  const limits: ModelLimits = { contextWindow: facts.contextWindow, maxOutputTokens: facts.maxOutputTokens };
  if (facts.inputLimit !== undefined) limits.inputLimit = facts.inputLimit;
  if (facts.windowSource === 'estimate' && facts.estimatedFrom) limits.estimatedFrom = facts.estimatedFrom;
  return limits;
}

/** A listed model with what the table knows: the entry the engine trims for and the picker describes. */
export function resolveEntry(listed: ModelEntry, settings: Pick<ModelSettings, 'catalog' | 'models'>, table: ModelTable = MODEL_TABLE, learned?: LearnedLimit): { entry: ModelEntry; facts: ModelFacts } {
  const facts = modelFacts(listed.id, listed, settings, learned, table);
  const entry: ModelEntry = {
    id: listed.id,
    name: facts.name,
    ...limitsOf(facts),
    toolCalling: facts.toolCalling,
    imageInput: facts.imageInput,
    limitSource: LIMIT_SOURCES[facts.windowSource] ?? 'unknown',
  };
  return { entry, facts };
}

/** The picker hides free-tier models unless opencode.showFreeModels is on (OpenCode refuses them to other clients). */
export function offered(facts: ModelFacts, settings: Pick<ModelSettings, 'showFreeModels'>): boolean {
  return !facts.free || settings.showFreeModels === true;
}

/**
 * Which model describes images for a model without image input (docs/editor.md "Images for text-only models"):
 * `opencode.imageDescription.model` when set (`none`: no model, the note stays); else a vision model of the same
 * endpoint, from the model table's facts of what it lists: the cheapest by input price (unpriced ones after the
 * priced), then by id, so the choice is the same on every request while the list is.
 */
export const NO_DESCRIBING_MODEL = 'none';

export interface DescribingCandidate {
  id: string;
  /** The model table's image flag for it (ModelFacts.imageInput). */
  imageInput: boolean;
  /** Dollars per million input tokens, when the data prices it. */
  inputPrice?: number;
}

export function describingModel(setting: string | undefined, candidates: readonly DescribingCandidate[]): string | undefined {
  const chosen = setting?.trim() ?? '';
  if (chosen.toLowerCase() === NO_DESCRIBING_MODEL) return undefined;
  if (chosen) return chosen;
  const vision = candidates.filter((c) => c.imageInput);
  vision.sort((a, b) => (a.inputPrice ?? Infinity) - (b.inputPrice ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return vision[0]?.id;
}
