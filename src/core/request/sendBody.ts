/**
 * The body as it goes on the wire, from the prepared one: the thinking effort folded in (the picker's value, else
 * `opencode.models["<id>"].reasoningEffort`; "default" sends nothing), then the catalogue's per-family quirks
 * (no `temperature` for noTemperature models, and what the route's format cannot carry beside the effort fields:
 * core/routes/route.ts AttemptRules.quirks), then
 * the parameters the model refused (refusedParams.ts, where the route keeps them). Applied per attempt,
 * after the trim: the same model and choice give the same bytes every turn. Pure.
 */
import type { Settings } from '../config/settings';
import { MODEL_TABLE } from '../models/modelTable';
import { effortFields, mergeEffort, type EffortChoice } from '../routes/effort';
import { type RouteId, type EndpointCatalog } from '../routeId';
import { routeById } from '../routes/registry/registry';
import type { PreparedRequest } from './prepareRequest';
import { withoutParams } from './refusedParams';
import { type RouteCard } from '../models/modelFacts';
import { EFFORT_LEVELS } from '../routes/select/reasoningControl';

export interface SendShape {
  modelId: string;
  route: RouteId;
  /** The endpoint's catalogue (Settings.catalog); undefined for a custom endpoint. */
  catalog?: EndpointCatalog;
  /** The picker's value for this request (VS Code's model configuration), unvalidated. */
  picked?: unknown;
  /** `opencode.models["<id>"].reasoningEffort`. */
  setting?: EffortChoice;
  /** Parameters this model refused before. */
  refused: ReadonlySet<string>;
}

/**
 * The picked level when it is one we know, else the setting, else "default". A picked "default" is the picker's
 * own default (VS Code may pass the schema's default with every request), so the setting still applies under it.
 */
export function effortChoice(picked: unknown, setting: EffortChoice | undefined): EffortChoice {
  if (EFFORT_LEVELS.includes(picked as never)) return picked as EffortChoice;
  return setting ?? 'default';
}

/** The body one attempt sends for a prepared request: its route, the picked effort, the setting, what the model refused. */
export function attemptBody(prepared: Pick<PreparedRequest, 'body' | 'route' | 'effort' | 'bodyInput'>, settings: Settings, refused: readonly string[]): Record<string, unknown> {
  const modelId = prepared.bodyInput.modelId;
  const shape: SendShape = { modelId, route: prepared.route.id, catalog: settings.catalog, picked: prepared.effort, setting: settings.models?.[modelId]?.reasoningEffort, refused: new Set(refused) };
  return sendBody(prepared.body, shape);
}

export function sendBody(body: Record<string, unknown>, shape: SendShape): Record<string, unknown> {
  // The model table's card on this route only: its fields would not fit another (a setting or a learned switch).
  const entry: RouteCard | undefined = MODEL_TABLE.cardOn(shape.modelId, shape.catalog, shape.route);
  const omitted = new Set(shape.refused);
  let out = body;
  if (entry) {
    const patch = effortFields(entry, effortChoice(shape.picked, shape.setting), { maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined });
    if (patch && Object.keys(patch).length > 0) out = mergeEffort(out, patch);
    if (entry.noTemperature) omitted.add('temperature');
    for (const quirk of routeById(shape.route).attempt.quirks?.(patch) ?? []) omitted.add(quirk);
  }
  return withoutParams(out, omitted, shape.route);
}
