/**
 * Gemini often sends function calls without ids; VS Code needs one per call, and the same history must give
 * the same bytes. The id is a hash of what identifies the call inside its answer — the response id, its
 * position, name, arguments and signature — so it is unique per call (the response id differs per answer) and
 * never changes afterwards (VS Code keeps it in the history; it is never recomputed).
 */
import { hashId } from '../../util/hashId';

export interface CallIdentity {
  responseId: string;
  index: number;
  name: string;
  /** The arguments as sent (JSON text). */
  args: string;
  signature?: string;
}

export function synthesizedCallId(call: CallIdentity): string {
  const text = JSON.stringify([call.responseId, call.index, call.name, call.args, call.signature ?? '']);
  return `call_gm_${hashId(text, 24)}`;
}
