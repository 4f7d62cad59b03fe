/** Writes a native route's frames, shaped by a fault (cut, stall, malformed frame, no terminal event, empty). */
import type { ServerResponse } from 'node:http';
import type { StreamShape } from './faults';
import { MALFORMED_FRAME } from './sse';
import { isGone, sleepUnlessClosed, startEventStream, writeFramesPaced } from './transport';

export interface NativeDelivery {
  res: ServerResponse;
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
  if (cut?.then === 'destroy') {
    delivery.onDeliberateDestroy();
    res.destroy();
    return;
  }
  if (cut?.then === 'stall') {
    await sleepUnlessClosed(res, cut.ms);
    if (!(await writeFramesPaced(res, frames.slice(cut.afterDeltas), delivery.delayMs))) return;
  }
  res.end();
}
