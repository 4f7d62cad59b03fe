/**
 * The wire formats a model can be reached on (each one folder under core/routes), at the bottom of the core so every
 * layer may name them: the model table gives each model its route; the routes build and read that wire.
 */
export type RouteId = 'chat' | 'responses' | 'messages' | 'gemini';
export const ROUTE_IDS: readonly RouteId[] = ['chat', 'responses', 'messages', 'gemini'];

export function isRouteId(value: unknown): value is RouteId {
  return typeof value === 'string' && (ROUTE_IDS as readonly string[]).includes(value);
}
