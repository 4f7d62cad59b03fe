/**
 * The body as it goes on the wire, from the prepared one: the thinking effort folded in (the picker's value, else
 * `opencode.models["<id>"].reasoningEffort`; "default" sends nothing), then the catalogue's per-family quirks
 * (no `temperature` for noTemperature models, and the route's own: core/routes/route.ts AttemptRules.quirks), then
 * the parameters the model refused (unsupportedParams.ts, where the route keeps them). Applied per attempt,
 * after the trim: the same model and choice give the same bytes every turn. Pure.
 */
import type { Settings } from '../config/settings';
import { catalogEntry } from '../models/catalog/catalog';
import { EFFORT_LEVELS, type CatalogEntry } from '../models/catalog/catalogTypes';
import { effortFields, mergeEffort, type EffortChoice } from '../routes/effort';
import type { RouteId } from '../routes/route';
import { catalogOf } from '../routes/select/routeTable';
import { routeById } from '../routes/registry';
import type { PreparedRequest } from './prepareRequest';
import { withoutParams } from './unsupportedParams';

export interface SendShape {
  modelId: string;
  route: RouteId;
  baseUrl: string;
  /** The picker's value for this request (VS Code's model configuration), unvalidated. */
  picked?: unknown;
  /** `opencode.models["<id>"].reasoningEffort`. */
  setting?: EffortChoice;
  /** Parameters this model refused before. */
  dropped: ReadonlySet<string>;
}

/**
 * The catalogue entry for a model: the endpoint's catalogue, else Zen's, else Go's (custom and local endpoints);
 * with a route, the first whose route it is (MiniMax M3 is chat on Zen, Messages on Go).
 */
export function entryFor(modelId: string, baseUrl: string, route?: RouteId): CatalogEntry | undefined {
  const catalog = catalogOf(baseUrl);
  const found = [catalog && catalogEntry(catalog, modelId), catalogEntry('zen', modelId), catalogEntry('go', modelId)].filter((e): e is CatalogEntry => !!e);
  return (route && found.find((entry) => entry.route === route)) || found[0];
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
  const shape: SendShape = { modelId, route: prepared.route.id, baseUrl: settings.baseUrl, picked: prepared.effort, setting: settings.models?.[modelId]?.reasoningEffort, dropped: new Set(refused) };
  return sendBody(prepared.body, shape);
}

export function sendBody(body: Record<string, unknown>, shape: SendShape): Record<string, unknown> {
  const entry = entryFor(shape.modelId, shape.baseUrl, shape.route);
  const dropped = new Set(shape.dropped);
  let out = body;
  // The catalogue's fields describe its own route; on another (a setting or a learned switch) they would not fit.
  if (entry && entry.route === shape.route) {
    const patch = effortFields(entry, effortChoice(shape.picked, shape.setting), { maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined });
    if (patch && Object.keys(patch).length > 0) out = mergeEffort(out, patch);
    if (entry.noTemperature) dropped.add('temperature');
    for (const quirk of routeById(shape.route).attempt.quirks?.(entry, patch) ?? []) dropped.add(quirk);
  }
  return withoutParams(out, dropped, shape.route);
}
