/**
 * The fake mounted the way OpenCode's gateway is: `/zen/v1/…` serves Zen's lineup, `/zen/go/v1/…` Go's (the bundled
 * snapshot's ids, each on its own route, with its window), beside the fake's own models. `/models` there lists ids
 * only, as OpenCode's does, so the extension must find routes and limits in its model table. The plain `/v1/…`
 * keeps the fake's own catalogue with its limit fields.
 */
import { SNAPSHOT } from '../core/models/data/snapshot';
import type { EndpointCatalog } from '../core/models/modelData';
import type { FakeModel } from './types';

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

/** The snapshot's lineup of one endpoint as fake models, then the fake's own (tests add models no table lists). */
export function mountedModels(catalog: EndpointCatalog, own: readonly FakeModel[]): FakeModel[] {
  const lineup = Object.entries(SNAPSHOT[catalog]).map(([id, card]): FakeModel => {
    const contextWindow = card.contextWindow ?? UNPUBLISHED_WINDOW;
    return { id, contextWindow, maxOutputTokens: card.maxOutputTokens ?? Math.floor(contextWindow / 4), toolCalling: true, imageInput: card.imageInput === true, api: card.route, reasons: card.reasoningControl !== undefined };
  });
  const listed = new Set(lineup.map((m) => m.id));
  return [...lineup, ...own.filter((m) => !listed.has(m.id))];
}

/** OpenCode's `/models`: ids only, no limits, no routes. */
export function idsOnlyListBody(models: readonly FakeModel[]): object {
  return { object: 'list', data: models.map((model) => ({ id: model.id, object: 'model', created: 0, owned_by: 'opencode' })) };
}
