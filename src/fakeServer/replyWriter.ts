/** Delivers a chosen reply over HTTP, streamed or not, shaped by a fault's StreamShape. */
import type { ServerResponse } from 'node:http';
import type { ScriptedReply } from './types';
import type { StreamShape } from './faults';
import { buildStreamFrames, DONE_FRAME, MALFORMED_FRAME, type CompletionIdentity } from './sse';
import { completionObject } from './completion';
import { finishReasonOf, replyDeltas } from './replies';
import { playInterruption } from './interruption';
import { isGone, sendJson, sleepUnlessClosed, startEventStream, writeAndFlush, writeFramesPaced } from './transport';

export interface ReplyDelivery {
  res: ServerResponse;
  identity: CompletionIdentity;
  reply: ScriptedReply;
  usage: object;
  /** The client asked for `stream_options.include_usage`. */
  includeUsageInStream: boolean;
  shape: StreamShape;
  /** Called right before the server drops the connection on purpose. */
  onDeliberateDestroy(): void;
  /** OpenCode's cost frame after `[DONE]`, USD (absent: none is sent). */
  cost?: number;
}

function destroyDeliberately(delivery: ReplyDelivery): void {
  delivery.onDeliberateDestroy();
  delivery.res.destroy();
}

export async function streamReply(delivery: ReplyDelivery): Promise<void> {
  const { res, reply, shape } = delivery;
  if (isGone(res)) return;
  startEventStream(res);
  if (shape.onlyDone) {
    res.end(DONE_FRAME);
    return;
  }
  const frames = buildStreamFrames({
    identity: delivery.identity,
    deltas: replyDeltas(reply),
    finishReason: finishReasonOf(reply),
    usage: delivery.includeUsageInStream ? delivery.usage : undefined,
    malformedAfterDeltas: shape.malformedAfterDeltas,
    omitFinishAndDone: shape.omitFinishAndDone,
    omitDone: shape.omitDone,
    usageFirst: shape.usageFirst,
    splitUsage: shape.splitUsage,
    cost: delivery.cost,
  });
  const delayMs = reply.delayMsBetweenChunks ?? 0;
  const cut = shape.interruption;
  const head = cut ? frames.slice(0, cut.afterDeltas) : frames;
  if (!(await writeFramesPaced(res, head, delayMs))) return;
  if (cut && !(await playInterruption({ res, route: 'chat', cut, rest: frames.slice(cut.afterDeltas), delayMs, onDeliberateDestroy: delivery.onDeliberateDestroy }))) return;
  if (shape.ending?.then === 'destroy') return destroyDeliberately(delivery);
  if (shape.ending?.then === 'hold') await sleepUnlessClosed(res, shape.ending.ms);
  if (!isGone(res)) res.end();
}

/** Non-streamed replies honour the shapes that make sense for one JSON body: cut, stall and malformed. */
export async function sendCompletion(delivery: ReplyDelivery): Promise<void> {
  const { res, shape } = delivery;
  if (isGone(res)) return;
  const completion = completionObject(delivery.identity, delivery.reply, delivery.usage);
  const cut = shape.interruption;
  if (cut?.then === 'destroy') {
    const text = JSON.stringify(completion);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    await writeAndFlush(res, text.slice(0, Math.floor(text.length / 2)));
    return destroyDeliberately(delivery);
  }
  if (cut?.then === 'stall') await sleepUnlessClosed(res, cut.ms);
  if (shape.malformedAfterDeltas !== undefined) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(MALFORMED_FRAME.slice('data: '.length).trim());
    return;
  }
  sendJson(res, 200, completion);
}
