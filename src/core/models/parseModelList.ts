/**
 * `GET {baseUrl}/models` → the endpoint's own fields per model. Endpoints name their limits differently (OpenRouter
 * `context_length`, vLLM `max_model_len`, models.dev-style `limit.context`, …); the first positive number found
 * wins (clamped to the one bound, util/tokenLimit.ts), else the field stays unknown. What the model data knows is added at lookup time (modelTable.ts), so newer
 * data applies without listing again. Duplicate ids are dropped and the list is sorted so the picker is stable.
 */
import { isRouteId } from '../routeId';
import type { ModelEntry } from '../types';
import { filledString, isRecord } from '../util/jsonFields';
import { clampedTokenLimit } from '../util/tokenLimit';

const CONTEXT_FIELDS = ['context_length', 'context_window', 'max_context_length', 'max_model_len', 'max_input_tokens', 'limit.context', 'top_provider.context_length'];
const OUTPUT_FIELDS = ['max_output_tokens', 'max_completion_tokens', 'limit.output', 'top_provider.max_completion_tokens'];

export function parseModelList(body: unknown): ModelEntry[] {
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : Array.isArray(body) ? body : [];
  const byId = new Map<string, ModelEntry>();
  for (const raw of data) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || !raw.id || byId.has(raw.id)) continue;
    byId.set(raw.id, toModelEntry(raw as Record<string, unknown> & { id: string }));
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

function toModelEntry(raw: Record<string, unknown> & { id: string }): ModelEntry {
  const contextWindow = firstPositive(raw, CONTEXT_FIELDS);
  return {
    id: raw.id,
    name: filledString(raw.name) ?? raw.id,
    contextWindow,
    maxOutputTokens: firstPositive(raw, OUTPUT_FIELDS),
    toolCalling: readCapability(raw, ['tool_calling', 'tools', 'function_calling']) ?? true,
    imageInput: readCapability(raw, ['image_input', 'vision']) ?? hasImageModality(raw) ?? false,
    limitSource: contextWindow ? 'endpoint' : 'unknown',
    ...statedApi(raw),
  };
}

/** The wire API an entry states (`api`, or `wire_api`), when it is one of the routes. */
function statedApi(raw: Record<string, unknown>): Pick<ModelEntry, 'api'> {
  const value = raw.api ?? raw.wire_api;
  return isRouteId(value) ? { api: value } : {};
}

function readCapability(raw: Record<string, unknown>, names: string[]): boolean | undefined {
  const caps = isRecord(raw.capabilities) ? raw.capabilities : undefined;
  for (const name of names) {
    const value = caps?.[name] ?? raw[`supports_${name}`];
    if (typeof value === 'boolean') return value;
  }
  const params = raw.supported_parameters;
  if (Array.isArray(params) && names.includes('tools')) return params.includes('tools');
  return undefined;
}

function hasImageModality(raw: Record<string, unknown>): boolean | undefined {
  const arch = isRecord(raw.architecture) ? raw.architecture : undefined;
  const modalities = arch?.input_modalities ?? (isRecord(raw.modalities) ? raw.modalities.input : undefined);
  return Array.isArray(modalities) ? modalities.includes('image') : undefined;
}

function firstPositive(raw: Record<string, unknown>, paths: string[]): number | undefined {
  for (const path of paths) {
    let value: unknown = raw;
    for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
    const n = typeof value === 'string' ? Number(value) : value;
    // Clamped, never dropped: the saved list checks the same bound (util/tokenLimit.ts).
    const limit = typeof n === 'number' ? clampedTokenLimit(n) : undefined;
    if (limit !== undefined) return limit;
  }
  return undefined;
}
