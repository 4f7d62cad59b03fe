/**
 * The one conversion step of a request, before the trim, in this order: the image policy (a text-only model
 * gets a fixed note in place of each image; a vision model's images come already fitted to its limits, off the
 * host thread: core/images/fitImages.ts, called by convertForRequest) → the wire form → the reasoning the history lost, put back →
 * tool pairs repaired. The trim (planTrim) then works on an already-converted history. Pure apart from the
 * reasoning memory it reads (ReasoningMemory, below); it reports what it changed so the caller logs it
 * (logConversion).
 */
import type { Logger } from '../log';
import type { ChatMessage } from '../types';
import type { WireMessage } from '../wire/wireTypes';
import { toWireMessages, withoutImages } from './toWireMessages';
import { BoundedMap, CallIdMemory } from '../util/boundedMap';
import type { ImageFitStats } from '../images/fitImages';
import { outsideText } from '../util/excerpt';

export interface ConvertOptions {
  /** The model accepts images; when false each image becomes a note (withoutImages). */
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

/*
 * Endpoints reject a history where a tool result has no matching call, or a call is not followed by its
 * result (e.g. a cancelled tool run). VS Code can hand us both. This pass makes every assistant tool-call
 * message be followed by exactly one result per call, deterministically, so the repair itself never
 * changes between turns and the cached prefix stays byte-identical.
 */
export const MISSING_TOOL_RESULT = '(no result: the tool call did not complete)';

export interface RepairReport {
  messages: WireMessage[];
  droppedOrphanResults: number;
  addedMissingResults: number;
}

export function repairToolPairs(messages: readonly WireMessage[]): RepairReport {
  const out: WireMessage[] = [];
  let pending: string[] = [];
  let droppedOrphanResults = 0;
  let addedMissingResults = 0;

  const closePending = (): void => {
    for (const id of pending) {
      out.push({ role: 'tool', tool_call_id: id, content: MISSING_TOOL_RESULT });
      addedMissingResults++;
    }
    pending = [];
  };

  for (const message of messages) {
    if (message.role === 'tool') {
      const at = pending.indexOf(message.tool_call_id);
      if (at === -1) {
        droppedOrphanResults++;
        continue;
      }
      pending.splice(at, 1);
      out.push(message);
      continue;
    }
    closePending();
    out.push(message);
    if (message.role === 'assistant' && message.tool_calls) {
      pending = message.tool_calls.map((call) => call.id);
    }
  }
  closePending();
  return { messages: out, droppedOrphanResults, addedMissingResults };
}

/*
 * DeepSeek-style reasoners answer 400 "reasoning_content must be passed back" when a tool-call turn comes back
 * without the reasoning that produced it — and VS Code's chat history does not always keep thinking parts. So
 * the reasoning of every answer that called tools is remembered, keyed by its tool-call ids, and put back on
 * that assistant message when the history returns without it. Always the same text for the same message, so
 * the bytes sent stay identical from turn to turn. Bounded, and serializable so a restart keeps it.
 *
 * The bound follows the native replay memory's rule (docs/routes.md "How much the native memory holds"): every
 * reasoning a conversation still sends stays remembered. Forgetting one changes its message near the start of the
 * body — every later request misses the prefix cache there, and an interleaved-thinking model refuses the turn.
 * It happened: 500 entries in all, so 500 tool-call answers in other conversations (or one long agent session)
 * evicted a conversation's oldest sent reasoning (chatReasoning.property.test.ts). Now the weight bounds it: a
 * request carries at most its byte ceiling (4.5 bytes per budget token, ~4.5M characters at a 1M window), so 8M
 * characters hold what one request sends plus a margin; sending refreshes an entry, so what is still sent goes last.
 */
export const REASONING_MEMORY_BOUNDS = {
  /** A backstop: a tool-call turn costs the trim a few hundred bytes, so one request holds far fewer. */
  maxEntries: 20_000,
  /** Characters of all remembered reasoning with its keys: also about what globalState stores at most. */
  maxTotalChars: 8_000_000,
  /** Reasoning longer than this is not remembered (nor restored from disk). */
  maxChars: 64_000,
} as const;

const weigh = (reasoning: string, callId: string): number => reasoning.length + callId.length;

export class ReasoningMemory extends CallIdMemory<string> {
  constructor() {
    super(new BoundedMap<string, string>(REASONING_MEMORY_BOUNDS.maxEntries, { weigh, maxWeight: REASONING_MEMORY_BOUNDS.maxTotalChars }));
  }

  remember(callIds: readonly string[], reasoning: string): void {
    if (!reasoning || reasoning.length > REASONING_MEMORY_BOUNDS.maxChars || callIds.length === 0) return;
    this.byCallId.set(callIds[0], reasoning);
  }

  /**
   * The history with remembered reasoning restored; messages that need nothing are passed through as they are.
   * Each request's restored entries become the most recent, so the reasoning a conversation still sends is evicted last.
   */
  restore(messages: WireMessage[]): { messages: WireMessage[]; restored: number } {
    let restored = 0;
    const out = messages.map((message) => {
      if (message.role !== 'assistant' || !message.tool_calls?.length) return message;
      // Read (and refreshed) even when the history kept the thinking: a later history may lose it.
      const reasoning = this.byCallId.get(message.tool_calls[0].id);
      if (!reasoning || message.reasoning_content) return message;
      restored++;
      return { ...message, reasoning_content: reasoning };
    });
    return { messages: restored ? out : messages, restored };
  }

  /** One saved entry (validated by validReasoning) back into the memory, oldest first, under its bounds. */
  restoreEntry(callId: string, text: string): void {
    this.byCallId.set(callId, text);
  }

  /** From texts validated by core/request/savedRecords.ts (validReasoning), the one place their rules live. */
  static fromJSON(value: Readonly<Record<string, string>>): ReasoningMemory {
    const memory = new ReasoningMemory();
    for (const [id, text] of Object.entries(value)) memory.byCallId.set(id, text);
    return memory;
  }
}
