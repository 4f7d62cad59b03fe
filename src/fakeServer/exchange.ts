/**
 * What every fake route handler (chat, responses, messages, gemini) does the same way once the request is
 * validated: read the fake directives, play a fault (an HTTP error or a dropped socket answers the request
 * here), choose the reply, and (native routes) deliver the frames after the configured delay.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorReply } from './errors';
import type { ServerState } from './state';
import type { FakeRoute, ScriptedReply } from './types';
import { planFault, type FaultPlan, type StreamShape } from './faults';
import { readDirectives, type RequestDirectives } from './directives';
import { withToolCallIds } from './replies';
import { sendError, sleepUnlessClosed } from './transport';
import { deliverNativeFrames } from './nativeDelivery';

export interface Exchange {
  state: ServerState;
  req: IncomingMessage;
  res: ServerResponse;
  body: unknown;
  /** Index of this request in the recorder. */
  index: number;
  /** Short notes for the one-line request log. */
  notes: string[];
}

/** The request's directives, or undefined after answering a malformed one with the route's own 400. */
export function directivesOrAnswer(exchange: Exchange, invalid: (message: string) => ErrorReply): RequestDirectives | undefined {
  try {
    return readDirectives(exchange.req);
  } catch (error) {
    sendError(exchange.res, invalid((error as Error).message));
    return undefined;
  }
}

export interface FaultContext {
  directives: RequestDirectives;
  defaultText: string;
  promptTokens: number;
  contextWindow: number;
}

/** The plan to answer with, or undefined when the fault already answered (HTTP error sent, socket dropped). */
export function planOrAnswer(exchange: Exchange, context: FaultContext): Extract<FaultPlan, { kind: 'reply' }> | undefined {
  const { state, req, res, index, notes } = exchange;
  const { directives, ...input } = context;
  const fault = directives.fault ?? state.faultQueue.shift();
  const plan: FaultPlan = fault ? planFault(fault, input) : { kind: 'reply' };
  if (fault) notes.push(`fault=${fault.name}`);
  if (plan.kind === 'http-error') {
    sendError(res, plan);
    return undefined;
  }
  if (plan.kind === 'destroy-socket') {
    state.recorder.markClosedByServer(index);
    req.socket.destroy();
    return undefined;
  }
  return plan;
}

/**
 * A fault's own reply wins; otherwise header, then queue, then the default. Call only once the request will be
 * answered, so a request that fails with an HTTP error leaves the scripted reply for the retry.
 */
export function chosenReply(exchange: Exchange, plan: { reply?: ScriptedReply }, directives: RequestDirectives, defaultText: string): ScriptedReply {
  return withToolCallIds(plan.reply ?? directives.reply ?? exchange.state.replyQueue.shift() ?? { text: defaultText }, exchange.index);
}

/** A native route's frames after the configured reply delay, shaped by the fault plan. */
export async function deliverAfterDelay(exchange: Exchange, route: Exclude<FakeRoute, 'chat'>, frames: string[], terminalFrames: number, plan: { shape?: StreamShape }, reply: ScriptedReply): Promise<void> {
  const { state, res, index } = exchange;
  await sleepUnlessClosed(res, state.settings.replyDelayMs);
  const onDeliberateDestroy = (): void => state.recorder.markClosedByServer(index);
  await deliverNativeFrames({ res, route, frames, terminalFrames, shape: plan.shape ?? {}, delayMs: reply.delayMsBetweenChunks ?? 0, onDeliberateDestroy, costFrame: state.settings.costFrames });
}
