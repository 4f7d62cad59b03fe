/**
 * Which vision model of an endpoint describes images for its text-only models (core/images/describingModel.ts
 * decides; this only gathers the endpoint's listed models as the model table sees them). The provider passes the
 * choice down in the request (ChatRequest.describeWith) and tells VS Code that such a model takes images, so chat
 * lets the user attach one (docs/editor.md "Images for text-only models").
 */
import type { Settings } from '../core/config/settings';
import { pricesFor } from '../core/cost/prices';
import { describingModel } from '../core/images/describingModel';
import { listedFields, offered } from '../core/models/modelEntries';
import type { DescribingModel } from '../core/request/describeImages';
import type { ChatMessage, ModelEntry } from '../core/types';
import type { EndpointPart } from './endpointParts';

export function describerOf(part: EndpointPart, settings: Settings, listed: readonly ModelEntry[]): DescribingModel | undefined {
  const candidates = listed.flatMap((model) => {
    const { facts } = part.engine.resolve(model);
    if (!offered(facts, settings)) return [];
    return [{ id: model.id, imageInput: facts.imageInput, inputPrice: pricesFor(model.id, settings.catalog)?.base.input }];
  });
  const modelId = describingModel(settings.imageDescriptionModel, candidates);
  if (!modelId) return undefined;
  const entry = listed.find((model) => model.id === modelId);
  return { modelId, listed: entry ? listedFields(entry) : {} };
}

/** Whether a request carries any image (only then is a describing model looked for). */
export function carriesImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.parts.some((p) => p.kind === 'image' || (p.kind === 'toolResult' && (p.images?.length ?? 0) > 0)));
}
