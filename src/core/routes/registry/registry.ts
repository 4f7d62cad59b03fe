/**
 * Every route by id, one row each: where it posts, where the key goes, how its body is built and how its
 * stream is read. A new route is its folder (body + reader) plus one row here (docs/routes.md). The registry is a
 * value: the engine takes one (EngineDeps.routes, this one when absent), so a caller can add a row of its own
 * (src/test/fifthRoute.test.ts adds a test route that way, nothing of it shipped).
 */
import { buildChatBody, chatAttempt } from '../chat/chatBody';
import { buildGeminiBody, geminiAttempt } from '../gemini/geminiBody';
import { newGeminiReader } from '../gemini/geminiStream';
import { buildMessagesBody, messagesAttempt } from '../messages/messagesBody';
import { newMessagesReader } from '../messages/messagesStream';
import { buildResponsesBody, responsesAttempt } from '../responses/responsesBody';
import type { RouteId } from '../../routeId';
import type { Route } from '../route';
import { newChatReader } from '../chat/chatReader';
import { anthropicHeaders, bearerHeaders, googleKeyHeaders } from '../requestParts';
import { newResponsesReader } from '../responses/responsesReader';

/** Gemini names the model in the path (its body has no `model` field). */
const geminiPath = (modelId: string): string => `/models/${encodeURIComponent(modelId)}:streamGenerateContent?alt=sse`;

/** Route id → route. The shipped ids are RouteId (core/routeId.ts); a caller's registry may add its own. */
export type RouteRegistry = ReadonlyMap<string, Route>;

const SHIPPED: Readonly<Record<RouteId, Route>> = {
  // OpenCode's "oa-compat" format: every model without another route, and any OpenAI-compatible endpoint.
  chat: { id: 'chat', path: '/chat/completions', headers: bearerHeaders, buildBody: buildChatBody, attempt: chatAttempt, newReader: newChatReader },
  // "openai": GPT, Grok and Muse models.
  responses: { id: 'responses', path: '/responses', headers: bearerHeaders, buildBody: buildResponsesBody, attempt: responsesAttempt, newReader: newResponsesReader },
  // "anthropic": Claude and Qwen3; MiniMax on Go only (chat on Zen).
  messages: { id: 'messages', path: '/messages', headers: anthropicHeaders, buildBody: buildMessagesBody, attempt: messagesAttempt, newReader: newMessagesReader },
  // "google": Gemini on Zen.
  gemini: { id: 'gemini', path: '/models', pathFor: geminiPath, headers: googleKeyHeaders, buildBody: buildGeminiBody, attempt: geminiAttempt, newReader: newGeminiReader },
};

export const SHIPPED_ROUTES: RouteRegistry = new Map(Object.entries(SHIPPED));

/** The route with that id in the registry (the shipped one by default). */
export function routeById(id: string, registry: RouteRegistry = SHIPPED_ROUTES): Route {
  const route = registry.get(id);
  if (!route) throw new Error(`No route "${id}" in the route registry.`);
  return route;
}
