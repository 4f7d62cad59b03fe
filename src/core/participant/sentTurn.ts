/**
 * What one `@opencode` turn sent — the user message's parts, attachments included — and the answer it got, in the
 * JSON form the participant returns as its ChatResult metadata. VS Code keeps that metadata with the turn (also
 * across restarts of the window) and hands it back in every later request's history, so an earlier turn goes again
 * byte for byte as it went, whatever the history's own copy of the turn lost (its attachments, the references VS
 * Code added by itself). Pure; the record is validated when read back, since the chat storage may hold anything.
 * Decision record: docs/report.md "Earlier turns are sent again as they were sent".
 */
import type { PromptPart } from './promptReferences';

/** The metadata field; the rest of the metadata (the model id) is the participant's own. */
export const SENT_TURN_FIELD = 'opencodeTurn';
const VERSION = 1;

export interface SentTurn {
  /** The user message's content as it was sent: attachments in prompt order, then the prompt. */
  parts: PromptPart[];
  /** The model's answer as it was streamed (no footer, no trim note); absent when the request failed. */
  answer?: string;
}

type StoredPart = { text: string } | { mimeType: string; base64: string };

interface StoredTurn {
  v: number;
  parts: StoredPart[];
  answer?: string;
}

function storedPart(part: PromptPart): StoredPart {
  return part.kind === 'text' ? { text: part.text } : { mimeType: part.mimeType, base64: Buffer.from(part.data).toString('base64') };
}

/** The turn as a plain JSON value for ChatResult metadata. */
export function sentTurnRecord(turn: SentTurn): StoredTurn {
  return { v: VERSION, parts: turn.parts.map(storedPart), ...(turn.answer === undefined ? {} : { answer: turn.answer }) };
}

function partOf(value: unknown): PromptPart | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const part = value as Record<string, unknown>;
  if (typeof part.text === 'string') return { kind: 'text', text: part.text };
  if (typeof part.mimeType === 'string' && typeof part.base64 === 'string') return { kind: 'image', mimeType: part.mimeType, data: new Uint8Array(Buffer.from(part.base64, 'base64')) };
  return undefined;
}

/** The turn kept in a response's metadata, or undefined when there is none or it is malformed (then the prompt alone goes). */
export function sentTurnOf(metadata: unknown): SentTurn | undefined {
  if (!metadata || typeof metadata !== 'object') return undefined;
  const stored = (metadata as Record<string, unknown>)[SENT_TURN_FIELD] as Partial<StoredTurn> | undefined;
  if (!stored || typeof stored !== 'object' || stored.v !== VERSION || !Array.isArray(stored.parts) || stored.parts.length === 0) return undefined;
  const parts = stored.parts.map(partOf);
  if (!parts.every((p): p is PromptPart => p !== undefined)) return undefined;
  if (stored.answer !== undefined && typeof stored.answer !== 'string') return undefined;
  return { parts, ...(stored.answer === undefined ? {} : { answer: stored.answer }) };
}
