/**
 * The one conversion step of a request, before the trim, in this order: the image policy (a text-only model
 * gets a fixed note in place of each image; a vision model's images come already fitted to its limits, off the
 * host thread: core/images/fitImages.ts, called by convertForRequest) → the wire form → the reasoning the history lost, put back →
 * tool pairs repaired. The trim (planTrim) then works on an already-converted history. Pure apart from the
 * reasoning memory it reads; it reports what it changed so the caller logs it (logConversion).
 */
import type { Logger } from '../log';
import type { ChatMessage } from '../types';
import type { WireMessage } from '../wire/wireTypes';
import type { ReasoningMemory } from './reasoningMemory';
import { repairToolPairs } from './repairToolPairs';
import { toWireMessages } from './toWireMessages';
import { withoutImages } from './withoutImages';
import type { ImageFitStats } from '../images/fitImages';
import { outsideText } from '../util/excerpt';

export interface ConvertOptions {
  /** The model accepts images; when false each image becomes a note (withoutImages.ts). */
  imageInput: boolean;
  /** What fitting the images (done before, fitImages) changed, for the log line. */
  imageFit?: ImageFitStats;
  reasoningMemory?: ReasoningMemory;
}

export interface Conversion {
  messages: WireMessage[];
  imagesReplaced: number;
  /** What fitting the images to the model's limits did (absent when the model takes no images). */
  imageFit?: ImageFitStats;
  reasoningRestored: number;
  droppedOrphanResults: number;
  addedMissingResults: number;
}

export function convertRequest(messages: readonly ChatMessage[], options: ConvertOptions): Conversion {
  const images = options.imageInput ? { messages: [...messages], removed: 0 } : withoutImages(messages);
  let wire = toWireMessages(images.messages);
  let reasoningRestored = 0;
  if (options.reasoningMemory) {
    const restored = options.reasoningMemory.restore(wire);
    reasoningRestored = restored.restored;
    wire = restored.messages;
  }
  const repaired = repairToolPairs(wire);
  return {
    messages: repaired.messages,
    imagesReplaced: images.removed,
    ...(options.imageInput && options.imageFit && options.imageFit.images > 0 ? { imageFit: options.imageFit } : {}),
    reasoningRestored,
    droppedOrphanResults: repaired.droppedOrphanResults,
    addedMissingResults: repaired.addedMissingResults,
  };
}

/** The conversion's log lines (their text is a contract); nothing when nothing changed. */
export function logConversion(modelId: string, c: Omit<Conversion, 'messages'>, log: Logger): void {
  if (c.imagesReplaced > 0) log.warn(`[request] ${outsideText(modelId)} does not accept images; replaced ${c.imagesReplaced} image(s) with a note.`);
  if (c.imageFit?.fitted) log.info(`[images] Fitted ${c.imageFit.fitted} of ${c.imageFit.images} image(s) to the model's limits: ${c.imageFit.bytesBefore} → ${c.imageFit.bytesAfter} bytes.`);
  if (c.imageFit?.unfit) log.warn(`[images] ${c.imageFit.unfit} image(s) sent as they were (${c.imageFit.firstUnfitReason}); the model may refuse them.`);
  if (c.imageFit?.refused) log.warn(`[images] ${c.imageFit.refused} image(s) not sent, each replaced by a note (${c.imageFit.firstRefusedReason}; not decoded).`);
  if (c.reasoningRestored > 0) log.debug(`[request] Restored the reasoning of ${c.reasoningRestored} tool-call answer(s) the history had lost.`);
  if (c.droppedOrphanResults || c.addedMissingResults) {
    log.warn(`[request] Repaired tool pairs: dropped ${c.droppedOrphanResults} orphaned tool result(s), closed ${c.addedMissingResults} call(s) that had no result.`);
  }
}

/**
 * The repair step alone, for callers that start from recorded wire histories (the replay tool, the bench,
 * the report): the same repair and log line as a live request, before the same planTrim.
 */
export function repairedHistory(messages: readonly WireMessage[], log: Logger): WireMessage[] {
  const repaired = repairToolPairs(messages);
  logConversion('', { imagesReplaced: 0, reasoningRestored: 0, droppedOrphanResults: repaired.droppedOrphanResults, addedMissingResults: repaired.addedMissingResults }, log);
  return repaired.messages;
}
