/**
 * The `opencode.models` setting: `{ "<model id>": { "api", "contextWindow", "maxOutputTokens", "imageInput",
 * "reasoningEffort" } }`, each field overriding what the catalogue or /models says for that model. Validated
 * here (pure): valid entries are kept, everything else is reported as a sentence and ignored, so one typo
 * never disables the others.
 */
import { isRouteId, ROUTE_IDS, type RouteId } from '../routeId';
import { EFFORT_LEVELS, type EffortLevel } from '../routes/select/reasoningControl';
import { isRecord } from '../util/jsonFields';

export interface ModelOverride {
  api?: RouteId;
  contextWindow?: number;
  maxOutputTokens?: number;
  imageInput?: boolean;
  /** The thinking effort when the picker sends none; "default" sends nothing. */
  reasoningEffort?: EffortLevel | 'default';
}

export interface ModelOverrides {
  byModel: ReadonlyMap<string, ModelOverride>;
  /** One sentence per ignored value, for the log. */
  problems: string[];
}

const KNOWN_KEYS = new Set(['api', 'contextWindow', 'maxOutputTokens', 'imageInput', 'reasoningEffort']);
const EFFORT_VALUES: readonly string[] = ['default', ...EFFORT_LEVELS];

export function validateModelOverrides(raw: unknown): ModelOverrides {
  const byModel = new Map<string, ModelOverride>();
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { byModel, problems };
  if (!isRecord(raw)) return { byModel, problems: ['opencode.models must be an object keyed by model id; it was ignored.'] };
  for (const [id, entry] of Object.entries(raw)) {
    if (!id.trim()) problems.push('opencode.models has an entry with an empty model id; it was ignored.');
    else if (!isRecord(entry)) problems.push(`opencode.models["${id}"] must be an object like { "api": "messages" }; it was ignored.`);
    else {
      const override = validateEntry(id, entry, problems);
      if (Object.keys(override).length > 0) byModel.set(id, override);
    }
  }
  return { byModel, problems };
}

function validateEntry(id: string, entry: Record<string, unknown>, problems: string[]): ModelOverride {
  const override: ModelOverride = {};
  if (entry.api !== undefined) {
    if (isRouteId(entry.api)) override.api = entry.api;
    else problems.push(`opencode.models["${id}"].api must be one of ${ROUTE_IDS.map((r) => `"${r}"`).join(', ')}, not ${JSON.stringify(entry.api)}; it was ignored.`);
  }
  for (const key of ['contextWindow', 'maxOutputTokens'] as const) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) override[key] = value;
    else problems.push(`opencode.models["${id}"].${key} must be a positive whole number of tokens, not ${JSON.stringify(value)}; it was ignored.`);
  }
  if (entry.imageInput !== undefined) {
    if (typeof entry.imageInput === 'boolean') override.imageInput = entry.imageInput;
    else problems.push(`opencode.models["${id}"].imageInput must be true or false, not ${JSON.stringify(entry.imageInput)}; it was ignored.`);
  }
  if (entry.reasoningEffort !== undefined) {
    if (typeof entry.reasoningEffort === 'string' && EFFORT_VALUES.includes(entry.reasoningEffort)) override.reasoningEffort = entry.reasoningEffort as EffortLevel | 'default';
    else problems.push(`opencode.models["${id}"].reasoningEffort must be one of ${EFFORT_VALUES.map((v) => `"${v}"`).join(', ')}, not ${JSON.stringify(entry.reasoningEffort)}; it was ignored.`);
  }
  for (const key of Object.keys(entry)) {
    if (!KNOWN_KEYS.has(key)) problems.push(`opencode.models["${id}"] has an unknown field "${key}"; it was ignored.`);
  }
  return override;
}
