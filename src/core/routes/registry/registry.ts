/**
 * Every route by id, one row each: where it posts, where the key goes, how its body is built and how its
 * stream is read. A new route is its folder (body + stream) plus one row here (docs/routes.md).
 */
import { chatAttempt } from '../chat/chatAttempt';
import { buildChatBody } from '../chat/chatBody';
import { newChatReader } from '../chat/chatStream';
import { geminiAttempt } from '../gemini/geminiAttempt';
import { buildGeminiBody } from '../gemini/geminiBody';
import { newGeminiReader } from '../gemini/geminiStream';
import { anthropicHeaders, bearerHeaders, googleKeyHeaders } from '../headers';
import { messagesAttempt } from '../messages/messagesAttempt';
import { buildMessagesBody } from '../messages/messagesBody';
import { newMessagesReader } from '../messages/messagesStream';
import { responsesAttempt } from '../responses/responsesAttempt';
import { buildResponsesBody } from '../responses/responsesBody';
import { newResponsesReader } from '../responses/responsesStream';
import type { RouteId } from '../../routeId';
import type { Route } from '../route';

/** Gemini names the model in the path (its body has no `model` field). */
const geminiPath = (modelId: string): string => `/models/${encodeURIComponent(modelId)}:streamGenerateContent?alt=sse`;

const ROUTES: Readonly<Record<RouteId, Route>> = {
  // OpenCode's "oa-compat" format: every model without another route, and any OpenAI-compatible endpoint.
  chat: { id: 'chat', path: '/chat/completions', headers: bearerHeaders, buildBody: buildChatBody, attempt: chatAttempt, newReader: newChatReader },
  // "openai": GPT, Grok and Muse models.
  responses: { id: 'responses', path: '/responses', headers: bearerHeaders, buildBody: buildResponsesBody, attempt: responsesAttempt, newReader: newResponsesReader },
  // "anthropic": Claude and Qwen3; MiniMax on Go only (chat on Zen).
  messages: { id: 'messages', path: '/messages', headers: anthropicHeaders, buildBody: buildMessagesBody, attempt: messagesAttempt, newReader: newMessagesReader },
  // "google": Gemini on Zen.
  gemini: { id: 'gemini', path: '/models', pathFor: geminiPath, headers: googleKeyHeaders, buildBody: buildGeminiBody, attempt: geminiAttempt, newReader: newGeminiReader },
};

export function routeById(id: RouteId): Route {
  return ROUTES[id];
}
