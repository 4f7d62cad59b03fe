/** The fake server's model per route, each route's path, and the setting that puts each model on its route. */
import type { RouteId } from '../../core/routeId';

/** The three routes wired through the engine (Gemini is wired separately). */
export type WiredRoute = Exclude<RouteId, 'gemini'>;
export const ROUTE_MODEL: Record<WiredRoute, string> = { chat: 'fake-large', responses: 'fake-responses', messages: 'fake-messages' };
export const ROUTES: WiredRoute[] = ['chat', 'responses', 'messages'];
export const PATHS: Record<WiredRoute, string> = { chat: '/v1/chat/completions', responses: '/v1/responses', messages: '/v1/messages' };
/** A loopback endpoint has no catalogue, so no table: this setting names each fake model's route. */
export const ROUTE_SETTING = { models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' } } };
