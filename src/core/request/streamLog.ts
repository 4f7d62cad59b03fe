/**
 * The `[stream]` and `[retry]` log lines, worded in one place. Pure. They carry what a user needs to tell
 * a complete answer from a cut one, and never the API key (nothing here sees a request header).
 */
import { ToolCallArgumentsError } from '../stream/toolCallAccumulator';
import { previewOf } from '../stream/streamFrame';
import { formatDuration, StreamIdleTimeoutError, StreamInterruptedError } from './streamErrors';
import { redact } from '../util/redact';
import { errorDetail } from './userFacingError';

/** Content was already shown, so the answer is kept as it is and the user is not told to try again. */
export function truncationLine(error: unknown, model: string): string {
  if (error instanceof StreamIdleTimeoutError) {
    return `[stream] ${model} sent nothing for ${formatDuration(error.ms)} in the middle of its answer; stopped waiting. The answer is incomplete: kept what arrived.`;
  }
  if (error instanceof StreamInterruptedError) {
    return `[stream] The connection broke in the middle of ${model}'s answer (${redact(error.causeText)}). The answer is incomplete: kept what arrived.`;
  }
  if (error instanceof ToolCallArgumentsError) {
    return `[stream] ${model} called the tool "${error.toolName}" with arguments that are not valid JSON (${previewOf(error.rawArguments)}); the call was dropped, the text before it was kept.`;
  }
  return `[stream] The answer from ${model} ended early (${errorDetail(error)}); kept what arrived.`;
}

export function retryLine(model: string, error: unknown, nextAttempt: number, attempts: number, delayMs: number): string {
  return `[retry] ${model}: ${excerptOf(errorDetail(error))} — nothing was shown yet, so trying again: attempt ${nextAttempt} of ${attempts} in ${delayMs} ms.`;
}

/** Longest detail a [retry] line carries; a gateway's HTML error page is kilobytes (docs/issues/014). */
export const RETRY_DETAIL_MAX = 200;

/**
 * A detail fit for one log line: an HTML page reduced to its text, whitespace collapsed, at most
 * RETRY_DETAIL_MAX characters, anything that looks like a key redacted.
 */
export function excerptOf(detail: string, max = RETRY_DETAIL_MAX): string {
  const html = /<(?:!doctype|html|head|body)\b/i.test(detail);
  const text = (html ? detail.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ') : detail).replace(/\s+/g, ' ').trim();
  const short = text.length > max ? `${text.slice(0, max)}… (${detail.length} characters in all)` : text;
  return redact(short);
}

export function incompleteLine(model: string): string {
  return `[stream] The answer from ${model} ended without a finish reason or [DONE]; it may be incomplete.`;
}

/** Tool calls whose arguments never finished arriving: not run with half an input (docs/routes.md). */
export function droppedCallsLine(model: string, count: number): string {
  return `[stream] The answer from ${model} ended inside ${count} tool call(s) whose arguments never finished; they were dropped, not run. The answer is incomplete.`;
}

export function outputLimitLine(model: string): string {
  return `[stream] ${model} stopped at its output limit (finish_reason=length); the answer may be cut short.`;
}

/** `kind`: what was wrong with them ("not JSON", "fields of the wrong type", or both). */
export function malformedLine(model: string, count: number, firstRaw: string, kind = 'not JSON'): string {
  return `[stream] Skipped ${count} malformed chunk(s) from ${model} (${kind}; first ${previewOf(firstRaw)}); the rest of the answer was kept, a piece of text may be missing.`;
}

/** Usage that contradicts itself: read the way that makes it consistent, said once per model (docs/issues/015). */
export function usageAnomalyLine(model: string, anomaly: string): string {
  return `[stream] ${model} sent inconsistent usage: ${anomaly}. The overflow check and calibration use that context.`;
}
