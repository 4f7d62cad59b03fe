/**
 * The model table's facts as the entries the picker and the engine use: one entry per model, its limits and
 * capabilities resolved by the table (modelTable.ts), the endpoint's own `/models` fields as the listed part.
 */
import type { Settings } from '../config/settings';
import type { ModelEntry } from '../types';
import type { EndpointCatalog } from './modelData';
import { MODEL_TABLE, type FactSource, type ModelFacts, type ModelTable } from './modelTable';

const LIMIT_SOURCES: Partial<Record<FactSource, ModelEntry['limitSource']>> = { setting: 'setting', learned: 'learned', live: 'bundled', snapshot: 'bundled', endpoint: 'endpoint', fallback: 'fallback' };

/** Before the endpoint has listed anything (no key yet): the ids the data lists for its catalogue. */
export function dataEntries(catalog: EndpointCatalog | undefined, table: ModelTable = MODEL_TABLE): ModelEntry[] {
  if (!catalog) return [];
  return table.ids(catalog).map((id) => ({ id, name: id, toolCalling: true, imageInput: false, limitSource: 'unknown' }));
}

/** A listed model with what the table knows: the entry the engine trims for and the picker describes. */
export function resolveEntry(listed: ModelEntry, settings: Pick<Settings, 'catalog' | 'models'>, table: ModelTable = MODEL_TABLE): { entry: ModelEntry; facts: ModelFacts } {
  const facts = table.lookup({
    modelId: listed.id,
    catalog: settings.catalog,
    override: settings.models?.[listed.id],
    listed: { name: listed.name, contextWindow: listed.contextWindow, maxOutputTokens: listed.maxOutputTokens, toolCalling: listed.toolCalling, imageInput: listed.imageInput || undefined },
  });
  const entry: ModelEntry = {
    id: listed.id,
    name: facts.name,
    contextWindow: facts.contextWindow,
    maxOutputTokens: facts.maxOutputTokens,
    toolCalling: facts.toolCalling,
    imageInput: facts.imageInput,
    limitSource: LIMIT_SOURCES[facts.windowSource] ?? 'unknown',
  };
  return { entry, facts };
}

/** The picker hides free-tier models unless opencode.showFreeModels is on (OpenCode refuses them to other clients). */
export function offered(facts: ModelFacts, settings: Pick<Settings, 'showFreeModels'>): boolean {
  return !facts.free || settings.showFreeModels === true;
}
