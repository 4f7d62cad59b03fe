/**
 * `POST /v1/chat/completions`: validate, pick a fault and a reply, account the prompt against the prefix
 * cache, then deliver. Reads top to bottom in that order.
 */
import type { FakeModel } from './types';
import * as errors from './errors';
import { findModel } from './models';
import type { RequestDirectives } from './directives';
import { chosenReply, directivesOrAnswer, planOrAnswer, type Exchange } from './exchange';
import { headerValue, isChatBody, wantsUsageInStream, type ChatBody } from './requestInput';
import { completionTokensOf, defaultReplyText } from './replies';
import { buildUsage } from './usageShapes';
import { sendError, sleepUnlessClosed } from './transport';
import { sendCompletion, streamReply } from './replyWriter';
import { imageProblem, seenImages } from './imageChecks';
import { prefixLifetimeMs } from './state';
import { passedBackReasoningProblem } from './reasoningChecks';

export type ChatExchange = Exchange;

export async function handleChatCompletion(exchange: ChatExchange): Promise<void> {
  const { state, req, res, body } = exchange;
  if (!isChatBody(body)) return sendError(res, errors.badRequest('Expected a JSON body with a "messages" array'));
  const model = findModel(state.settings.models, body.model);
  if (!model) return sendError(res, errors.modelNotFound(body.model));
  const sessionId = headerValue(req, 'x-opencode-session');
  if (state.settings.requireSession && !sessionId) return sendError(res, errors.missingSession());
  const images = imageProblem('chat', body as unknown as Record<string, unknown>, model);
  if (images) return sendError(res, errors.badRequest(images, 'invalid_image'));
  const reasoning = passedBackReasoningProblem(body.messages, model);
  if (reasoning) return sendError(res, reasoning);

  const directives = directivesOrAnswer(exchange, (message) => errors.badRequest(message, 'invalid_fake_directive'));
  if (!directives) return;
  await answer(exchange, body, model, sessionId, directives);
}

async function answer(
  exchange: ChatExchange,
  body: ChatBody,
  model: FakeModel,
  sessionId: string | undefined,
  directives: RequestDirectives,
): Promise<void> {
  const { state, res, index, notes } = exchange;
  const measure = state.cache.measure(body);
  const defaultText = defaultReplyText(body.messages, state.settings.replyTokens, seenImages('chat', body as unknown as Record<string, unknown>));
  notes.push(`model=${model.id}`, `prompt=${measure.promptTokens}`);
  const plan = planOrAnswer(exchange, { directives, defaultText, promptTokens: measure.promptTokens, contextWindow: model.contextWindow });
  if (!plan) return;
  const tooLong = errors.promptTooLong(model, measure.promptTokens);
  if (tooLong) return sendError(res, tooLong);

  const reply = chosenReply(exchange, plan, directives, defaultText);
  const observation = state.cache.observeMeasured(sessionId, measure, prefixLifetimeMs(state.settings, body));
  notes.push(`cached=${observation.cachedTokens}`);
  const usageShape = directives.usageShape ?? model.usageShape ?? state.settings.usageShape;
  const usage = buildUsage(usageShape, { ...observation, completionTokens: completionTokensOf(reply) });

  await sleepUnlessClosed(res, state.settings.replyDelayMs);
  const delivery = {
    res,
    identity: { id: `chatcmpl-fake-${index}`, model: model.id, created: Math.floor(Date.now() / 1000) },
    reply,
    usage,
    includeUsageInStream: wantsUsageInStream(body),
    shape: plan.shape ?? {},
    onDeliberateDestroy: () => state.recorder.markClosedByServer(index),
    cost: state.settings.costFrames ? measure.promptTokens / 1e6 : undefined,
  };
  if (body.stream === true && !delivery.shape.asJson) await streamReply(delivery);
  else await sendCompletion(delivery);
}
