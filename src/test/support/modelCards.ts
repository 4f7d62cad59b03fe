/** The snapshot's cards as the request rules see them (modelTable.cardOn), for tests over the whole lineup. */
import * as assert from 'assert';
import { SNAPSHOT } from '../../core/models/data/snapshot';
import { MODEL_TABLE } from '../../core/models/modelTable';
import { type EndpointCatalog } from '../../core/routeId';
import { type RouteCard } from '../../core/models/modelFacts';

/** One model's card on its own route; fails the test when the snapshot does not list it. */
export function cardOf(catalog: EndpointCatalog, id: string): RouteCard {
  const listed = SNAPSHOT[catalog][id];
  assert.ok(listed, `${catalog}/${id} is in the snapshot`);
  const card = MODEL_TABLE.cardOn(id, catalog, listed.route);
  assert.ok(card, id);
  return card;
}

/** Every card of both endpoints, each with the endpoint it came from. */
export function allCards(): (RouteCard & { catalog: EndpointCatalog })[] {
  return (['zen', 'go'] as const).flatMap((catalog) => Object.keys(SNAPSHOT[catalog]).map((id) => ({ ...cardOf(catalog, id), catalog })));
}
