/**
 * `POST /v1/chat/completions`: validate, pick a fault and a reply, account the prompt against the prefix
 * cache, then deliver. Reads top to bottom in that order.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeModel } from './types';
import type { ServerState } from './state';
import * as errors from './errors';
import { findModel } from './models';
import { planFault, type FaultPlan } from './faults';
import { readDirectives, type RequestDirectives } from './directives';
import { headerValue, isChatBody, wantsUsageInStream, type ChatBody } from './requestInput';
import { completionTokensOf, defaultReplyText, withToolCallIds } from './replies';
import { buildUsage } from './usageShapes';
import { sendError, sleepUnlessClosed } from './transport';
import { sendCompletion, streamReply } from './replyWriter';

export interface ChatExchange {
  state: ServerState;
  req: IncomingMessage;
  res: ServerResponse;
  body: unknown;
  /** Index of this request in the recorder. */
  index: number;
  /** Short notes for the one-line request log. */
  notes: string[];
}

export async function handleChatCompletion(exchange: ChatExchange): Promise<void> {
  const { state, req, res, body } = exchange;
  if (!isChatBody(body)) return sendError(res, errors.badRequest('Expected a JSON body with a "messages" array'));
  const model = findModel(state.settings.models, body.model);
  if (!model) return sendError(res, errors.modelNotFound(body.model));
  const sessionId = headerValue(req, 'x-opencode-session');
  if (state.settings.requireSession && !sessionId) return sendError(res, errors.missingSession());

  let directives: RequestDirectives;
  try {
    directives = readDirectives(req);
  } catch (error) {
    return sendError(res, errors.badRequest((error as Error).message, 'invalid_fake_directive'));
  }
  await answer(exchange, body, model, sessionId, directives);
}

async function answer(
  exchange: ChatExchange,
  body: ChatBody,
  model: FakeModel,
  sessionId: string | undefined,
  directives: RequestDirectives,
): Promise<void> {
  const { state, req, res, index, notes } = exchange;
  const measure = state.cache.measure(body);
  const defaultText = defaultReplyText(body.messages, state.settings.replyTokens);
  const fault = directives.fault ?? state.faultQueue.shift();
  const plan: FaultPlan = fault
    ? planFault(fault, { defaultText, promptTokens: measure.promptTokens, contextWindow: model.contextWindow })
    : { kind: 'reply' };
  notes.push(`model=${model.id}`, `prompt=${measure.promptTokens}`);
  if (fault) notes.push(`fault=${fault.name}`);

  if (plan.kind === 'http-error') return sendError(res, plan);
  if (plan.kind === 'destroy-socket') {
    state.recorder.markClosedByServer(index);
    req.socket.destroy();
    return;
  }
  if (measure.promptTokens > model.contextWindow) {
    return sendError(res, errors.contextLengthExceeded(model.contextWindow, measure.promptTokens));
  }

  // A fault's own reply wins; otherwise header, then queue, then the default. The queue is only consumed here,
  // so a request that fails with an HTTP error leaves the scripted reply for the retry.
  const chosen = plan.reply ?? directives.reply ?? state.replyQueue.shift() ?? { text: defaultText };
  const reply = withToolCallIds(chosen, index);
  const observation = state.cache.observeMeasured(sessionId, measure);
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
  };
  if (body.stream === true && !delivery.shape.asJson) await streamReply(delivery);
  else await sendCompletion(delivery);
}
