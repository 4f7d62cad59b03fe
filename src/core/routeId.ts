/**
 * The wire formats a model can be reached on (each one folder under core/routes), and the OpenCode catalogues whose
 * route for a model may differ (MiniMax is chat on Zen, Messages on Go), at the bottom of the core so every layer
 * may name them: the model table gives each model its route; the routes build and read that wire.
 */
export type RouteId = 'chat' | 'responses' | 'messages' | 'gemini';
export const ROUTE_IDS: readonly RouteId[] = ['chat', 'responses', 'messages', 'gemini'];

export function isRouteId(value: unknown): value is RouteId {
  return typeof value === 'string' && (ROUTE_IDS as readonly string[]).includes(value);
}

/** The OpenCode endpoints with published model data. A custom endpoint has none of its own. */
export type EndpointCatalog = 'zen' | 'go';
