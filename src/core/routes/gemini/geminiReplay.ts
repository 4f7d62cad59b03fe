/**
 * What a Gemini answer must get back later: each `functionCall` part's `thoughtSignature` (unchanged; a
 * missing one is a 400) and Gemini's own call id when it sent one. Kept in the route-neutral NativeReplayMemory
 * as one `native` slot per signed call, placed before that call's slot:
 * `{ type: 'gemini.functionCall', callId, thoughtSignature, geminiId? }`.
 */
import type { AssistantLayout } from '../../answer/nativeReplay';
import { isRecord } from '../../util/jsonFields';

export const SIGNED_CALL = 'gemini.functionCall';

export interface CallSignature {
  thoughtSignature?: string;
  /** The id Gemini gave the call, when it gave one (then the result must carry it too). */
  geminiId?: string;
}

export function signedCallItem(callId: string, signature: CallSignature): Record<string, unknown> {
  const item: Record<string, unknown> = { type: SIGNED_CALL, callId };
  if (signature.thoughtSignature) item.thoughtSignature = signature.thoughtSignature;
  if (signature.geminiId) item.geminiId = signature.geminiId;
  return item;
}

/** Call id → its signature and Gemini id, from a remembered layout (malformed items are ignored). */
export function callSignatures(layout: AssistantLayout | undefined): Map<string, CallSignature> {
  const out = new Map<string, CallSignature>();
  for (const slot of layout?.slots ?? []) {
    if (slot.kind !== 'native' || !isRecord(slot.item) || slot.item.type !== SIGNED_CALL || typeof slot.item.callId !== 'string') continue;
    const { thoughtSignature, geminiId } = slot.item;
    out.set(slot.item.callId, {
      ...(typeof thoughtSignature === 'string' ? { thoughtSignature } : {}),
      ...(typeof geminiId === 'string' ? { geminiId } : {}),
    });
  }
  return out;
}
