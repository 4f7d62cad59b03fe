/**
 * The part of a request the history trim cannot shorten — the tools the chat offers and its instructions (the
 * leading system messages) — must fit the model's budget, else no cut can help: VS Code's agent offers ~15K tokens
 * of tools, and on a 6K model the trim used to cut the system prompt to a stub, log "Over budget" and send a
 * request the endpoint refused with a sentence about long conversations. Such a request is refused before it is
 * sent, with the figures the user needs (what the tools take, what would fit, what to do). Pure.
 */
import { calibratedTokens } from '../trim/historyTrim';
import type { MessageSize, SizeMemo } from '../trim/messageSize';
import type { WireMessage } from '../wire/wireTypes';
import { UserFacingError } from './userFacingError';
import { outsideText } from '../util/excerpt';

export interface FixedPart {
  modelId: string;
  /** The input budget the trim uses, and its ceiling (the budget less the safety margin). */
  budgetTokens: number;
  ceilingTokens: number;
  toolCount: number;
  /** Calibrated token estimates. */
  toolsTokens: number;
  systemTokens: number;
  /** The newest message: sent on every request, whatever the cut. */
  newestTokens: number;
  /** The byte ceiling (opencode.maxRequestBytes, or derived from the budget) and what the fixed part weighs. */
  maxBytes: number;
  toolsBytes: number;
  systemBytes: number;
}

export interface FixedPartInput {
  modelId: string;
  messages: readonly WireMessage[];
  toolCount: number;
  toolsSize: MessageSize;
  budgetTokens: number;
  ceilingTokens: number;
  maxBytes: number;
}

/** Sizes as the trim measures them (its memo, its calibration), so this check and the cut agree. */
export function measureFixedPart(input: FixedPartInput, sizing: { memo: SizeMemo; calibration: number }): FixedPart {
  const tokens = (size: MessageSize): number => calibratedTokens(size.tokens, size.nativeTokens ?? 0, sizing.calibration);
  const { messages } = input;
  let systemTokens = 0;
  let systemBytes = 0;
  for (let i = 0; i < messages.length && messages[i].role === 'system'; i++) {
    const size = sizing.memo.sizeOf(messages[i]);
    systemTokens += tokens(size);
    systemBytes += size.bytes;
  }
  const newest = messages.at(-1);
  return {
    modelId: input.modelId,
    budgetTokens: input.budgetTokens,
    ceilingTokens: input.ceilingTokens,
    toolCount: input.toolCount,
    toolsTokens: tokens(input.toolsSize),
    systemTokens,
    newestTokens: newest && newest.role !== 'system' ? tokens(sizing.memo.sizeOf(newest)) : 0,
    maxBytes: input.maxBytes,
    toolsBytes: input.toolsSize.bytes,
    systemBytes,
  };
}

const n = (value: number): string => Math.max(0, Math.round(value)).toLocaleString('en-US');

const overTokens = (part: FixedPart): boolean => part.toolsTokens + part.systemTokens > part.ceilingTokens;
const overBytes = (part: FixedPart): boolean => part.toolsBytes + part.systemBytes > part.maxBytes;

/** True when the tools and the instructions alone are over the ceiling (tokens or bytes): dropping history cannot make it fit. */
export function fixedPartOverBudget(part: FixedPart): boolean {
  return overTokens(part) || overBytes(part);
}

/** What to tell the user: what takes the room, what would fit, what to do. */
export function fixedPartMessage(part: FixedPart): string {
  if (!overTokens(part)) return bytesMessage(part);
  const budget = `${outsideText(part.modelId)}'s input budget of ${n(part.budgetTokens)} tokens`;
  const instructions = `the instructions (system prompt) ~${n(part.systemTokens)}`;
  if (part.toolCount === 0) {
    return `The request cannot fit ${budget}: ${instructions} tokens alone, before any of the conversation. Pick a model with a larger context window.`;
  }
  const fits = part.ceilingTokens - part.systemTokens - part.newestTokens;
  const room = fits > 0 ? `At most ~${n(fits)} tokens of tools would fit with these instructions and your message.` : 'No tools would fit with these instructions and your message.';
  return (
    `The request cannot fit ${budget}: the ${part.toolCount} tools offered by the chat take ~${n(part.toolsTokens)} tokens and ${instructions}, ` +
    `before any of the conversation. ${room} Pick a model with a larger context window, or turn tools off in the chat's tool picker (Configure Tools).`
  );
}

/** Under the token ceiling but over the byte ceiling (schemas and prompts heavy in bytes per token). */
function bytesMessage(part: FixedPart): string {
  const what = part.toolCount === 0 ? `the instructions (system prompt) take ${n(part.systemBytes)} bytes` : `the ${part.toolCount} tools offered by the chat take ${n(part.toolsBytes)} bytes and the instructions (system prompt) ${n(part.systemBytes)}`;
  const tools = part.toolCount === 0 ? '' : ", or turn tools off in the chat's tool picker (Configure Tools)";
  return `The request cannot fit the ${n(part.maxBytes)} bytes a request to ${outsideText(part.modelId)} may take: ${what}, before any of the conversation. Raise opencode.maxRequestBytes if the endpoint takes larger requests, pick a model with a larger context window${tools}.`;
}

/** The refusal the provider shows (kind 'context'); the detail, for the log, holds the same figures. */
export function fixedPartError(part: FixedPart): UserFacingError {
  const detail =
    `tools=${part.toolCount} (~${part.toolsTokens} tokens, ${part.toolsBytes} bytes) system=~${part.systemTokens} (${part.systemBytes} bytes) ` +
    `newest=~${part.newestTokens} budget=${part.budgetTokens} ceiling=${part.ceilingTokens} maxBytes=${part.maxBytes}`;
  return new UserFacingError('context', fixedPartMessage(part), detail);
}
