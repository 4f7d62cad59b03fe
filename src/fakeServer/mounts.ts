/**
 * The fake mounted the way OpenCode's gateway is: `/zen/v1/…` serves Zen's lineup, `/zen/go/v1/…` Go's (the bundled
 * snapshot's ids, each on its own route, with its window), beside the fake's own models. `/models` there lists ids
 * only, as OpenCode's does, so the extension must find routes and limits in its model table. The plain `/v1/…`
 * keeps the fake's own catalogue with its limit fields.
 */
import { SNAPSHOT } from '../core/models/data/snapshot';
import type { FakeModel } from './types';
import { type EndpointCatalog } from '../core/routeId';

const MOUNTS: readonly { prefix: string; catalog: EndpointCatalog }[] = [
  { prefix: '/zen/go/v1', catalog: 'go' },
  { prefix: '/zen/v1', catalog: 'zen' },
];
/** A model the data lists without a window still needs one to answer. */
const UNPUBLISHED_WINDOW = 128_000;

export interface Mount {
  catalog: EndpointCatalog;
  /** The path as the unmounted fake routes it (`/v1/…`). */
  path: string;
}

export function mountOf(path: string): Mount | undefined {
  const mount = MOUNTS.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
  return mount && { catalog: mount.catalog, path: `/v1${path.slice(mount.prefix.length)}` };
}

/**
 * Ids the gateway serves that the bundled data does not list yet (OpenCode adds models weekly): each of a family the
 * data knows, with its own true limits, so the extension must estimate them (core/models/estimate.ts) and learn the
 * rest from refusals. `gpt-8` takes less input than the newest GPT the data lists (its estimate), refused without a
 * number, as OpenAI does.
 */
export const UNLISTED_MODELS: Readonly<Record<EndpointCatalog, readonly FakeModel[]>> = {
  zen: [{ id: 'gpt-8', contextWindow: 1_050_000, inputLimit: 400_000, maxOutputTokens: 128_000, toolCalling: true, imageInput: true, api: 'responses', reasons: true }],
  go: [{ id: 'glm-6', contextWindow: 1_000_000, maxOutputTokens: 131_072, toolCalling: true, api: 'chat', reasons: true }],
};

/**
 * The snapshot's lineup of one endpoint as fake models (each enforcing its published input limit the way OpenAI
 * does), the unlisted newer ids, then the fake's own (tests add models no table lists).
 */
export function mountedModels(catalog: EndpointCatalog, own: readonly FakeModel[]): FakeModel[] {
  const lineup = Object.entries(SNAPSHOT[catalog]).map(([id, card]): FakeModel => {
    const contextWindow = card.contextWindow ?? UNPUBLISHED_WINDOW;
    const model: FakeModel = { id, contextWindow, maxOutputTokens: card.maxOutputTokens ?? Math.floor(contextWindow / 4), toolCalling: true, imageInput: card.imageInput === true, api: card.route, reasons: card.reasoningControl !== undefined };
    if (card.inputLimit !== undefined) model.inputLimit = card.inputLimit;
    return model;
  });
  const models = [...lineup, ...UNLISTED_MODELS[catalog]];
  const listed = new Set(models.map((m) => m.id));
  return [...models, ...own.filter((m) => !listed.has(m.id))];
}

/** OpenCode's `/models`: ids only, no limits, no routes. */
export function idsOnlyListBody(models: readonly FakeModel[]): object {
  return { object: 'list', data: models.map((model) => ({ id: model.id, object: 'model', created: 0, owned_by: 'opencode' })) };
}
