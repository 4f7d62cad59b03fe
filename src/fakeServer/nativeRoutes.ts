/**
 * `POST /v1/responses` and `POST /v1/messages`, the way OpenCode serves them: only the model's own route
 * answers (any other gets the 401 ModelError), each with its native stream, its prompt cache (exact prefix for
 * Responses; breakpoints only for Messages) and its usage shape, then the cost ping. Faults apply as on chat.
 */
import { prefixLifetimeMs } from './state';
import type { FakeModel, FakeRoute } from './types';
import type { ServerState } from './state';
import * as errors from './errors';
import { findModel } from './models';
import { chosenReply, deliverAfterDelay, directivesOrAnswer, planOrAnswer, type Exchange } from './exchange';
import { headerValue } from './requestInput';
import { completionTokensOf, defaultReplyText } from './replies';
import { countTextTokens } from '../cacheModel/valueTokens';
import { sendError } from './transport';
import { anthropicInvalid, tooManyBreakpoints, wrongFormat } from './routeErrors';
import { responsesFrames, responsesUsageObject } from './responsesFrames';
import { messagesFrames } from './messagesFrames';
import { messagesProblem, responsesInputProblem } from './nativeValidation';
import { imageProblem, seenImages } from './imageChecks';

export type NativeExchange = Exchange;

type Body = Record<string, unknown>;

interface Prompt {
  promptTokens: number;
  usage: (completionTokens: number, reasoningTokens: number) => object;
  userTexts: { role: 'user'; content: string }[];
}

export async function handleNativeRoute(route: Exclude<FakeRoute, 'chat'>, exchange: NativeExchange): Promise<void> {
  const { state, req, res, body, notes } = exchange;
  const list = route === 'responses' ? 'input' : 'messages';
  if (typeof body !== 'object' || body === null || !Array.isArray((body as Body)[list])) return sendError(res, errors.badRequest(`Expected a JSON body with an "${list}" array`));
  const model = findModel(state.settings.models, (body as Body).model);
  if (!model) return sendError(res, errors.modelNotFound((body as Body).model));
  if ((model.api ?? 'chat') !== route) return sendError(res, wrongFormat(model.id, route));
  const session = headerValue(req, 'x-opencode-session');
  if (state.settings.requireSession && !session) return sendError(res, errors.missingSession());
  const problem = (route === 'responses' ? responsesInputProblem((body as Body).input as unknown[]) : messagesProblem((body as Body).messages as unknown[]) ?? maxTokensProblem(body as Body, model)) ?? imageProblem(route, body as Body, model);
  if (problem) return sendError(res, route === 'responses' ? errors.badRequest(problem, 'invalid_prompt') : anthropicInvalid(problem));
  const prompt = route === 'responses' ? responsesPrompt(state, body as Body, session) : messagesPrompt(state, body as Body, session);
  if ('breakpoints' in prompt) return sendError(res, tooManyBreakpoints(prompt.breakpoints));
  notes.push(`model=${model.id}`, `route=${route}`, `prompt=${prompt.promptTokens}`);
  await answer(route, exchange, model, prompt);
}

function maxTokensProblem(body: Body, model: FakeModel): string | undefined {
  const max = body.max_tokens;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) return 'max_tokens: Field required';
  return max > model.maxOutputTokens ? `max_tokens: ${max} > ${model.maxOutputTokens}, which is the maximum allowed number of output tokens for ${model.id}` : undefined;
}

function responsesPrompt(state: ServerState, body: Body, session: string | undefined): Prompt {
  const input = body.input as unknown[];
  const measure = state.cache.measure({ messages: input, tools: Array.isArray(body.tools) ? body.tools : undefined });
  const key = session ?? (typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : undefined);
  const observation = state.cache.observeMeasured(key, measure, prefixLifetimeMs(state.settings, body));
  return {
    promptTokens: measure.promptTokens,
    usage: (completion, reasoning) => responsesUsageObject(measure.promptTokens, observation.cachedTokens, completion, reasoning),
    userTexts: userTexts(input),
  };
}

function messagesPrompt(state: ServerState, body: Body, session: string | undefined): Prompt | { breakpoints: number } {
  const messages = body.messages as { role?: unknown; content?: unknown }[];
  const result = state.messagesCache.observe(session ?? '', { tools: Array.isArray(body.tools) ? body.tools : undefined, system: body.system, messages });
  if (!result.ok) return { breakpoints: result.breakpoints };
  return { promptTokens: result.promptTokens, usage: () => result.usage, userTexts: userTexts(messages) };
}

/** The users' words, for the default reply ("Answer n to: …"): input_text or text parts of user turns. */
function userTexts(items: readonly unknown[]): { role: 'user'; content: string }[] {
  const out: { role: 'user'; content: string }[] = [];
  for (const item of items as Record<string, unknown>[]) {
    if (item?.role !== 'user') continue;
    const parts = typeof item.content === 'string' ? [{ type: 'text', text: item.content }] : Array.isArray(item.content) ? item.content : [];
    // An Anthropic user turn made only of tool results is a tool message in chat terms, not a user turn.
    if (parts.length > 0 && parts.every((p) => p?.type === 'tool_result')) continue;
    const text = parts.filter((p) => p?.type === 'text' || p?.type === 'input_text').map((p) => String(p.text)).join(' ');
    out.push({ role: 'user', content: text });
  }
  return out;
}

async function answer(route: Exclude<FakeRoute, 'chat'>, exchange: NativeExchange, model: FakeModel, prompt: Prompt): Promise<void> {
  const { state, res, index } = exchange;
  const directives = directivesOrAnswer(exchange, (message) => errors.badRequest(message, 'invalid_fake_directive'));
  if (!directives) return;
  const defaultText = defaultReplyText(prompt.userTexts, state.settings.replyTokens, seenImages(route, exchange.body as Body));
  const plan = planOrAnswer(exchange, { directives, defaultText, promptTokens: prompt.promptTokens, contextWindow: model.contextWindow });
  if (!plan) return;
  const tooLong = errors.promptTooLong(model, prompt.promptTokens);
  if (tooLong) return sendError(res, tooLong);
  const reply = chosenReply(exchange, plan, directives, defaultText);
  const completion = completionTokensOf(reply);
  const usage = prompt.usage(completion, countTextTokens(reply.reasoning ?? ''));
  const include = (exchange.body as Body).include;
  const encrypted = Array.isArray(include) && include.includes('reasoning.encrypted_content');
  const frameInput = { id: `fake${index}`, model: model.id, reply, usage, cost: prompt.promptTokens / 1e6, encrypted };
  const frames = route === 'responses' ? responsesFrames(frameInput) : messagesFrames({ ...frameInput, outputTokens: completion });
  await deliverAfterDelay(exchange, route, frames, route === 'responses' ? 1 : 2, plan, reply);
}
