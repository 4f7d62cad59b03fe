/** The streaming wire format: OpenAI `chat.completion.chunk` objects framed as server-sent events. */
import type { ChatDelta } from './replies';

export interface CompletionIdentity {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
}

export const DONE_FRAME = 'data: [DONE]\n\n';
/** A frame whose payload is not JSON, as some gateways emit mid-stream. */
export const MALFORMED_FRAME = 'data: {not json\n\n';

export function sseFrame(payload: object): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export function chunkObject(identity: CompletionIdentity, delta: ChatDelta, finishReason: string | null): object {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** The trailing usage chunk sent when the client asked for `stream_options.include_usage`. */
export function usageChunkObject(identity: CompletionIdentity, usage: object): object {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [],
    usage,
  };
}

export interface StreamFramesInput {
  identity: CompletionIdentity;
  deltas: readonly ChatDelta[];
  finishReason: string;
  /** Present only when the client asked for usage. */
  usage?: object;
  /** Insert one non-JSON frame after this many delta frames. */
  malformedAfterDeltas?: number;
  /** End after the deltas: no finish_reason, no usage, no [DONE]. */
  omitFinishAndDone?: boolean;
  /** Everything but the [DONE] frame. */
  omitDone?: boolean;
  /** The usage chunk right after the first delta instead of after the finish reason. */
  usageFirst?: boolean;
  /** Usage in two frames, the second with only the output count. */
  splitUsage?: boolean;
  /** OpenCode's cost chunk after `[DONE]` (`{"choices":[],"cost":"…"}`), USD. */
  cost?: number;
}

/** The usage as two frames: all but the output count, then only the output count (under the shape's own name). */
function splitUsageFrames(usage: Record<string, unknown>): object[] {
  const outputKey = 'completion_tokens' in usage ? 'completion_tokens' : 'output_tokens';
  const { [outputKey]: output, ...rest } = usage;
  return [rest, { [outputKey]: output }];
}

/**
 * All frames of one streamed reply, in order. Frame i (before any malformed frame) carries delta i, so
 * callers can cut a stream "after n deltas" by slicing.
 */
export function buildStreamFrames(input: StreamFramesInput): string[] {
  const frames = input.deltas.map((delta) => sseFrame(chunkObject(input.identity, delta, null)));
  if (input.malformedAfterDeltas !== undefined) {
    frames.splice(Math.min(input.malformedAfterDeltas, frames.length), 0, MALFORMED_FRAME);
  }
  if (input.omitFinishAndDone) return frames;
  const usageFrames = !input.usage ? [] : (input.splitUsage ? splitUsageFrames(input.usage as Record<string, unknown>) : [input.usage])
    .map((usage) => sseFrame(usageChunkObject(input.identity, usage)));
  if (input.usageFirst) frames.splice(Math.min(1, frames.length), 0, ...usageFrames);
  frames.push(sseFrame(chunkObject(input.identity, {}, input.finishReason)));
  if (!input.usageFirst) frames.push(...usageFrames);
  if (!input.omitDone) frames.push(DONE_FRAME);
  if (!input.omitDone && input.cost !== undefined) frames.push(sseFrame({ choices: [], cost: input.cost.toFixed(6) }));
  return frames;
}
