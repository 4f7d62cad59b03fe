/** Every route by id: a new route (Gemini) is its folder plus one line here. */
import { chatRoute } from './chat/chatRoute';
import { geminiRoute } from './gemini/geminiRoute';
import { messagesRoute } from './messages/messagesRoute';
import { responsesRoute } from './responses/responsesRoute';
import type { Route, RouteId } from './route';

const ROUTES: Record<RouteId, Route> = { chat: chatRoute, responses: responsesRoute, messages: messagesRoute, gemini: geminiRoute };

export function routeById(id: RouteId): Route {
  return ROUTES[id];
}
