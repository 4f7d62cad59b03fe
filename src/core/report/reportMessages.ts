/** What the report page may ask of the extension; anything else (or out of range) is ignored. */
import { isNonNegative, isRecord } from '../util/jsonFields';

export type ReportMessage = { type: 'whatIf' | 'apply'; headroom: number; step: number };

const MAX_TOKENS = 1_000_000;

export function parseReportMessage(message: unknown): ReportMessage | undefined {
  if (!isRecord(message) || (message.type !== 'whatIf' && message.type !== 'apply')) return undefined;
  const { headroom, step } = message;
  const ok = (v: unknown): v is number => isNonNegative(v) && v <= MAX_TOKENS;
  if (!ok(headroom) || !ok(step)) return undefined;
  return { type: message.type, headroom: Math.round(headroom), step: Math.round(step) };
}
