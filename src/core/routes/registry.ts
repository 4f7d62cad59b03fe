/**
 * Every route by id, one row each: where it posts, where the key goes, how its body is built and how its
 * stream is read. A new route is its folder (body + stream) plus one row here (docs/routes.md).
 */
import { buildChatBody } from './chat/chatBody';
import { ChatReader } from './chat/chatStream';
import { buildGeminiBody } from './gemini/geminiBody';
import { GeminiReader } from './gemini/geminiStream';
import { anthropicHeaders, bearerHeaders, googleKeyHeaders } from './headers';
import { buildMessagesBody } from './messages/messagesBody';
import { MessagesReader } from './messages/messagesStream';
import { buildResponsesBody } from './responses/responsesBody';
import { ResponsesReader } from './responses/responsesStream';
import type { Route, RouteId } from './route';

/** Gemini names the model in the path (its body has no `model` field). */
const geminiPath = (modelId: string): string => `/models/${encodeURIComponent(modelId)}:streamGenerateContent?alt=sse`;

const ROUTES: Readonly<Record<RouteId, Route>> = {
  // OpenCode's "oa-compat" format: every model without another route, and any OpenAI-compatible endpoint.
  chat: { id: 'chat', path: '/chat/completions', headers: bearerHeaders, buildBody: buildChatBody, newReader: () => new ChatReader() },
  // "openai": GPT, Grok and Muse models.
  responses: { id: 'responses', path: '/responses', headers: bearerHeaders, buildBody: buildResponsesBody, newReader: () => new ResponsesReader() },
  // "anthropic": Claude and Qwen3; MiniMax on Go only (chat on Zen).
  messages: { id: 'messages', path: '/messages', headers: anthropicHeaders, buildBody: buildMessagesBody, newReader: () => new MessagesReader() },
  // "google": Gemini on Zen.
  gemini: { id: 'gemini', path: '/models', pathFor: geminiPath, headers: googleKeyHeaders, buildBody: buildGeminiBody, newReader: () => new GeminiReader() },
};

export function routeById(id: RouteId): Route {
  return ROUTES[id];
}
