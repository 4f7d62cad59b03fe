/**
 * The `[stream]` and `[retry]` log lines, worded in one place. Pure. They carry what a user needs to tell
 * a complete answer from a cut one, and never the API key (nothing here sees a request header).
 */
import { formatDuration, StreamIdleTimeoutError, StreamInterruptedError } from './streamErrors';
import { redact } from '../util/redact';
import { errorDetail } from './userFacingError';
import { excerptOf, outsideText } from '../util/excerpt';
import { previewOf } from '../stream/answerStream';
import { ToolCallArgumentsError } from '../answer/toolCalls';


/** Content was already shown, so the answer is kept as it is and the user is not told to try again. */
export function truncationLine(error: unknown, model: string): string {
  if (error instanceof StreamIdleTimeoutError) {
    return `[stream] ${outsideText(model)} sent nothing for ${formatDuration(error.ms)} in the middle of its answer; stopped waiting. The answer is incomplete: kept what arrived.`;
  }
  if (error instanceof StreamInterruptedError) {
    return `[stream] The connection broke in the middle of ${outsideText(model)}'s answer (${redact(error.causeText)}). The answer is incomplete: kept what arrived.`;
  }
  if (error instanceof ToolCallArgumentsError) return brokenCallLine(model, error);
  return `[stream] The answer from ${outsideText(model)} ended early (${errorDetail(error)}); kept what arrived.`;
}

/** One call whose arguments were not JSON: dropped alone, the rest of the answer kept (core/answer/toolCalls.ts). */
export function brokenCallLine(model: string, error: ToolCallArgumentsError): string {
  return `[stream] ${outsideText(model)} called the tool "${error.toolName}" with arguments that are not valid JSON (${previewOf(error.rawArguments)}); the call was dropped, the rest of the answer was kept.`;
}

/** Why an answer that was being shown stopped, in the user's words (the CutAnswerError's reason). */
export function cutReason(error: unknown): string {
  if (error instanceof StreamIdleTimeoutError) return `the model sent nothing for ${formatDuration(error.ms)}`;
  if (error instanceof StreamInterruptedError) return 'the connection broke';
  return excerptOf(`the provider reported an error: ${error instanceof Error ? error.message : String(error)}`, 200);
}

export function retryLine(model: string, error: unknown, nextAttempt: number, attempts: number, delayMs: number): string {
  return `[retry] ${outsideText(model)}: ${excerptOf(errorDetail(error))} — nothing was shown yet, so trying again: attempt ${nextAttempt} of ${attempts} in ${delayMs} ms.`;
}

export function incompleteLine(model: string): string {
  return `[stream] The answer from ${outsideText(model)} ended without a finish reason or [DONE]; it may be incomplete.`;
}

/** Tool calls whose arguments never finished arriving: not run with half an input (docs/routes.md). */
export function droppedCallsLine(model: string, count: number): string {
  return `[stream] The answer from ${outsideText(model)} ended inside ${count} tool call(s) whose arguments never finished; they were dropped, not run. The answer is incomplete.`;
}

export function outputLimitLine(model: string): string {
  return `[stream] ${outsideText(model)} stopped at its output limit (finish_reason=length); the answer may be cut short.`;
}

/** `kind`: what was wrong with them ("not JSON", "fields of the wrong type", or both). */
export function malformedLine(model: string, count: number, firstRaw: string, kind = 'not JSON'): string {
  return `[stream] Skipped ${count} malformed chunk(s) from ${outsideText(model)} (${kind}; first ${previewOf(firstRaw)}); the rest of the answer was kept, a piece of text may be missing.`;
}

/** Usage that contradicts itself: read the way that makes it consistent, said once per model (docs/issues/015). */
export function usageAnomalyLine(model: string, anomaly: string): string {
  return `[stream] ${outsideText(model)} sent inconsistent usage: ${anomaly}. The overflow check and calibration use that context.`;
}
