/**
 * Tool-call ids each format insists on, derived deterministically from VS Code's call id so the same history
 * always encodes to the same bytes (and the pair call ↔ result stays matched).
 */
import { hashId } from '../util/hashId';

/** Responses `function_call` item ids must start with `fc_`; `call_id` stays VS Code's id. */
export function responsesItemId(callId: string): string {
  return `fc_${hashId(callId, 32)}`;
}

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]{1,128}$/;

/** Anthropic tool ids must match [a-zA-Z0-9_-]+; anything else (or empty) gets a stable derived id. */
export function anthropicToolId(callId: string): string {
  return ANTHROPIC_ID.test(callId) ? callId : `toolu_${hashId(callId, 32)}`;
}
