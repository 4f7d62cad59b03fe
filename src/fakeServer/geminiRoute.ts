/**
 * `POST /v1/models/{id}:streamGenerateContent` the way OpenCode serves Gemini: key only in x-goog-api-key,
 * the model from the path (only a "google"-format model answers; any other gets the 401 ModelError), Gemini's
 * 400s (missing `functionResponse.response`, missing or altered thought signatures, max output over the
 * model's limit, thinkingLevel and thinkingBudget together), an implicit prefix cache reported as `cachedContentTokenCount`, the SSE stream, then the
 * cost frame. Faults apply as on every route.
 */
import { prefixLifetimeMs } from './state';
import type { ErrorReply } from './errors';
import * as errors from './errors';
import type { NativeExchange } from './nativeRoutes';
import { findModel } from './models';
import { chosenReply, deliverAfterDelay, directivesOrAnswer, planOrAnswer } from './exchange';
import { headerValue } from './requestInput';
import { completionTokensOf, defaultReplyText } from './replies';
import { countTextTokens } from '../cacheModel/valueTokens';
import { sendError } from './transport';
import { anthropicAuth, wrongFormat } from './routeErrors';
import { geminiFrames, geminiUsageObject } from './geminiFrames';
import { geminiProblem, thinkingConfigProblem } from './geminiValidation';
import { imageProblem, seenImages } from './imageChecks';
import type { FakeModel } from './types';

type Body = Record<string, unknown>;
export const GEMINI_PATH = /^\/v1\/models\/([^/:]+):streamGenerateContent$/;

/** Gemini's error body: `{error: {code, message, status}}`. */
export function geminiError(code: number, message: string, status: string): ErrorReply {
  return { status: code, body: { error: { code, message, status } } };
}

export async function handleGemini(modelId: string, exchange: NativeExchange): Promise<void> {
  const { state, req, res, body, notes } = exchange;
  const { requireKey } = state.settings;
  // The gateway checks the key before anything reaches Google: its own AuthError, as on /messages.
  const key = headerValue(req, 'x-goog-api-key');
  if (requireKey !== undefined && key !== requireKey) return sendError(res, anthropicAuth(key === undefined));
  if (typeof body !== 'object' || body === null || !Array.isArray((body as Body).contents)) return sendError(res, geminiError(400, 'Expected a JSON body with a "contents" array', 'INVALID_ARGUMENT'));
  const model = findModel(state.settings.models, modelId);
  if (!model) return sendError(res, errors.modelNotFound(modelId));
  if ((model.api ?? 'chat') !== 'gemini') return sendError(res, wrongFormat(model.id, 'gemini'));
  const session = headerValue(req, 'x-opencode-session');
  if (state.settings.requireSession && !session) return sendError(res, errors.missingSession());
  const problem = geminiProblem((body as Body).contents as unknown[], model.reasons === true) ?? maxOutputProblem(body as Body, model) ?? thinkingConfigProblem((body as Body).generationConfig) ?? imageProblem('gemini', body as Body, model);
  if (problem) return sendError(res, geminiError(400, problem, 'INVALID_ARGUMENT'));
  const contents = (body as Body).contents as Body[];
  const system = (body as Body).systemInstruction;
  const measure = state.cache.measure({ messages: system === undefined ? contents : [system, ...contents], tools: Array.isArray((body as Body).tools) ? ((body as Body).tools as unknown[]) : undefined });
  const observation = state.cache.observeMeasured(session, measure, prefixLifetimeMs(state.settings, body));
  notes.push(`model=${model.id}`, 'route=gemini', `prompt=${measure.promptTokens}`);
  await answer(exchange, model, { promptTokens: measure.promptTokens, cachedTokens: observation.cachedTokens, userTexts: userTexts(contents) });
}

function maxOutputProblem(body: Body, model: FakeModel): string | undefined {
  const config = body.generationConfig as Body | undefined;
  const max = config?.maxOutputTokens;
  if (max === undefined) return undefined;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) return 'generation_config.max_output_tokens: must be a positive integer';
  return max > model.maxOutputTokens ? `The input max_output_tokens value (${max}) exceeds the maximum allowed (${model.maxOutputTokens + 1}).` : undefined;
}

/** The users' words for the default reply; a user turn made only of function responses is not one. */
function userTexts(contents: readonly Body[]): { role: 'user'; content: string }[] {
  return contents
    .filter((c) => c.role === 'user' && Array.isArray(c.parts) && (c.parts as Body[]).some((p) => typeof p?.text === 'string'))
    .map((c) => ({ role: 'user' as const, content: (c.parts as Body[]).flatMap((p) => (typeof p?.text === 'string' ? [p.text] : [])).join(' ') }));
}

interface GeminiPrompt {
  promptTokens: number;
  cachedTokens: number;
  userTexts: { role: 'user'; content: string }[];
}

async function answer(exchange: NativeExchange, model: FakeModel, prompt: GeminiPrompt): Promise<void> {
  const { state, res, index } = exchange;
  const directives = directivesOrAnswer(exchange, (message) => geminiError(400, message, 'INVALID_ARGUMENT'));
  if (!directives) return;
  const defaultText = defaultReplyText(prompt.userTexts, state.settings.replyTokens, seenImages('gemini', exchange.body as Body));
  const plan = planOrAnswer(exchange, { directives, defaultText, promptTokens: prompt.promptTokens, contextWindow: model.contextWindow });
  if (!plan) return;
  // Gemini names its input limit (the window when none is set).
  const limit = Math.min(model.contextWindow, model.inputLimit ?? Infinity);
  if (prompt.promptTokens > limit) {
    return sendError(res, geminiError(400, `The input token count (${prompt.promptTokens}) exceeds the maximum number of tokens allowed (${limit}).`, 'INVALID_ARGUMENT'));
  }
  const reply = chosenReply(exchange, plan, directives, defaultText);
  const completion = completionTokensOf(reply);
  const usage = geminiUsageObject(prompt.promptTokens, prompt.cachedTokens, completion, countTextTokens(reply.reasoning ?? ''));
  const frames = geminiFrames({ id: `fake${index}`, model: model.id, reply, usage, cost: prompt.promptTokens / 1e6, signed: model.reasons === true });
  await deliverAfterDelay(exchange, 'gemini', frames, 1, plan, reply);
}
