/** Gemini `generateContent` (`/models/{id}:streamGenerateContent?alt=sse`, OpenCode's "google" format), key in x-goog-api-key. */
import { googleKeyHeaders } from '../headers';
import type { Route } from '../route';
import { buildGeminiBody } from './geminiBody';
import { GeminiReader } from './geminiStream';

export const geminiRoute: Route = {
  id: 'gemini',
  path: '/models',
  // The model is in the path (the body has no `model` field).
  pathFor: (modelId) => `/models/${encodeURIComponent(modelId)}:streamGenerateContent?alt=sse`,
  headers: googleKeyHeaders,
  buildBody: buildGeminiBody,
  newReader: () => new GeminiReader(),
};
