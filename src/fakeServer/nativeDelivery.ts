/** Writes a native route's frames, shaped by a fault (cut, stall, malformed frame, no terminal event, empty). */
import type { ServerResponse } from 'node:http';
import type { StreamShape } from './faults';
import { MALFORMED_FRAME } from './sse';
import { playInterruption } from './interruption';
import { isGone, startEventStream, writeFramesPaced } from './transport';
import type { FakeRoute } from './types';

export interface NativeDelivery {
  res: ServerResponse;
  route: Exclude<FakeRoute, 'chat'>;
  /** Every event of the answer, the cost ping last. */
  frames: string[];
  /** How many frames before the cost ping end the answer (response.completed; message_delta + message_stop). */
  terminalFrames: number;
  shape: StreamShape;
  delayMs: number;
  onDeliberateDestroy(): void;
  /** Send the cost ping (default true). */
  costFrame?: boolean;
}

export async function deliverNativeFrames(delivery: NativeDelivery): Promise<void> {
  const { res, shape } = delivery;
  if (isGone(res)) return;
  startEventStream(res);
  let frames = [...delivery.frames];
  const cost = frames.pop() as string;
  if (shape.onlyDone) frames = [];
  if (shape.omitFinishAndDone) frames = frames.slice(0, frames.length - delivery.terminalFrames);
  if (shape.malformedAfterDeltas !== undefined) frames.splice(Math.min(shape.malformedAfterDeltas, frames.length), 0, MALFORMED_FRAME);
  if (!shape.omitFinishAndDone && delivery.costFrame !== false) frames.push(cost);
  const cut = shape.interruption;
  const head = cut ? frames.slice(0, cut.afterDeltas) : frames;
  if (!(await writeFramesPaced(res, head, delivery.delayMs))) return;
  if (cut && !(await playInterruption({ res, route: delivery.route, cut, rest: frames.slice(cut.afterDeltas), delayMs: delivery.delayMs, onDeliberateDestroy: delivery.onDeliberateDestroy }))) return;
  res.end();
}
