/**
 * The stand-in signature (geminiBody.ts SKIP_SIGNATURE) tells Gemini to skip validating a call it did not sign:
 * it works, but the model loses that turn's reasoning. Worth one WARN per model (per log, i.e. per activation),
 * not one per request.
 */
import type { Logger } from '../../log';
import { onceFor } from '../../util/onceKeys';
import { SKIP_SIGNATURE } from './geminiBody';
import { outsideText } from '../../util/excerpt';

/** How many parts of a Gemini body carry the stand-in. */
export function standInCount(body: Record<string, unknown>): number {
  const contents = Array.isArray(body.contents) ? (body.contents as { parts?: unknown }[]) : [];
  return contents.reduce((n, content) => n + (Array.isArray(content.parts) ? content.parts.filter((p) => (p as { thoughtSignature?: unknown }).thoughtSignature === SKIP_SIGNATURE).length : 0), 0);
}

export function noteStandIn(body: Record<string, unknown>, modelId: string, log: Logger): void {
  const count = standInCount(body);
  if (count === 0) return;
  if (!onceFor(log).first(`gemini-stand-in\u0000${modelId}`)) return;
  log.warn(`[gemini] ${outsideText(modelId)}: ${count} tool call(s) in the history carry no thought signature Gemini gave (another model or route made them, or it was lost); sent with Gemini's stand-in signature, so the model does not see that turn's reasoning. Said once per model.`);
}
