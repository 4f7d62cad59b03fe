/** Plays a fault's StreamInterruption once its head frames are written, the same way on every route. */
import type { ServerResponse } from 'node:http';
import type { StreamInterruption } from './faults';
import { midStreamErrorFrame, nothingFrames } from './faultFrames';
import { isGone, sleepUnlessClosed, writeAndFlush, writeFramesPaced } from './transport';
import type { FakeRoute } from './types';

export interface InterruptionPlay {
  res: ServerResponse;
  route: FakeRoute;
  cut: StreamInterruption;
  /** The answer's frames after the cut. */
  rest: readonly string[];
  delayMs: number;
  onDeliberateDestroy(): void;
}

/** True when the caller should go on (end the response normally); false when the response is done or gone. */
export async function playInterruption(play: InterruptionPlay): Promise<boolean> {
  const { res, cut } = play;
  switch (cut.then) {
    case 'destroy':
      play.onDeliberateDestroy();
      res.destroy();
      return false;
    case 'stall':
      await sleepUnlessClosed(res, cut.ms);
      return writeFramesPaced(res, play.rest, play.delayMs);
    case 'nothing':
      if (!(await sendNothing(res, play.route, cut.everyMs, cut.ms))) return false;
      return writeFramesPaced(res, play.rest, play.delayMs);
    case 'error':
      await writeAndFlush(res, midStreamErrorFrame(play.route));
      return !isGone(res);
  }
}

async function sendNothing(res: ServerResponse, route: FakeRoute, everyMs: number, ms: number): Promise<boolean> {
  const frames = nothingFrames(route);
  const until = Date.now() + ms;
  for (let i = 0; Date.now() < until; i++) {
    if (isGone(res)) return false;
    await writeAndFlush(res, frames[i % frames.length]);
    await sleepUnlessClosed(res, Math.max(1, everyMs));
  }
  return !isGone(res);
}
