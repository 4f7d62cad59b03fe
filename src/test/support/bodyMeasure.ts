/**
 * What a native route's body actually carries, measured with the trim's own per-message rule
 * (core/tokens/messageTokens.ts, the estimator as text counter): texts, tool calls (name + arguments as sent),
 * images, and the native items the body passes back (reasoning items, thinking blocks, thought signatures).
 * Framing the rule does not count on the neutral side either is not counted here: JSON keys, ids (call ids,
 * Gemini's own call ids, item ids of function calls), and Gemini's fixed stand-in signature for calls it never
 * signed (a constant marker, part of a call's scaffold like TOOL_OVERHEAD_TOKENS). Tool schemas are left out:
 * callers compare bodies without tools.
 */
import type { RouteId } from '../../core/routeId';
import { SKIP_SIGNATURE } from '../../core/routes/gemini/geminiBody';
import { estimateTextTokens } from '../../core/tokens/estimate';
import { MESSAGE_OVERHEAD_TOKENS, messageTokens, nativePieces, type MessagePieces } from '../../core/tokens/messageTokens';
import { isRecord } from '../../core/util/jsonFields';

type Json = Record<string, unknown>;
const count = (text: string): number => estimateTextTokens(text);

interface Pieces {
  texts: string[];
  toolCalls: { name: string; arguments: string }[];
  images: number;
  native: unknown[];
  opaque: string[];
}

const empty = (): Pieces => ({ texts: [], toolCalls: [], images: 0, native: [], opaque: [] });

/** The rule on one body message; `framed` false for items that are part of a message already counted (calls, reasoning items). */
function tokensOf(pieces: Pieces, framed = true): number {
  const native = nativePieces(pieces.native);
  const rulePieces: MessagePieces = { texts: pieces.texts, toolCalls: pieces.toolCalls, images: pieces.images, native: { thoughts: native.thoughts, opaque: [...native.opaque, ...pieces.opaque] } };
  return messageTokens(rulePieces, count) - (framed ? 0 : MESSAGE_OVERHEAD_TOKENS);
}

function responsesTokens(body: Json): number {
  let total = 0;
  for (const item of body.input as Json[]) {
    const pieces = empty();
    if (item.type === 'message') {
      for (const part of item.content as Json[]) {
        if (part.type === 'input_image') pieces.images++;
        else pieces.texts.push(String(part.text));
      }
      total += tokensOf(pieces);
    } else if (item.type === 'function_call') {
      pieces.toolCalls.push({ name: String(item.name), arguments: String(item.arguments) });
      total += tokensOf(pieces, false);
    } else if (item.type === 'function_call_output') {
      pieces.texts.push(String(item.output));
      total += tokensOf(pieces);
    } else {
      pieces.native.push(item);
      total += tokensOf(pieces, false);
    }
  }
  return total;
}

function messagesTokens(body: Json): number {
  let total = 0;
  for (const block of (body.system as Json[] | undefined) ?? []) total += tokensOf({ ...empty(), texts: [String(block.text)] });
  for (const message of body.messages as Json[]) {
    const pieces = empty();
    for (const block of message.content as Json[]) {
      if (block.type === 'text') pieces.texts.push(String(block.text));
      else if (block.type === 'tool_result') pieces.texts.push(String(block.content));
      else if (block.type === 'image') pieces.images++;
      else if (block.type === 'tool_use') pieces.toolCalls.push({ name: String(block.name), arguments: JSON.stringify(block.input) });
      else pieces.native.push(block);
    }
    total += tokensOf(pieces);
  }
  return total;
}

function geminiPart(part: Json, pieces: Pieces): void {
  if (typeof part.text === 'string') pieces.texts.push(part.text);
  else if (part.inlineData || part.fileData) pieces.images++;
  else if (isRecord(part.functionCall)) {
    pieces.toolCalls.push({ name: String(part.functionCall.name), arguments: JSON.stringify(part.functionCall.args) });
    if (typeof part.thoughtSignature === 'string' && part.thoughtSignature !== SKIP_SIGNATURE) pieces.opaque.push(part.thoughtSignature);
  } else if (isRecord(part.functionResponse)) {
    const response = part.functionResponse.response as Json;
    const keys = Object.keys(response);
    pieces.texts.push(keys.length === 1 && typeof response.content === 'string' ? response.content : JSON.stringify(response));
  }
}

function geminiTokens(body: Json): number {
  let total = 0;
  const system = body.systemInstruction as { parts: Json[] } | undefined;
  if (system) {
    const pieces = empty();
    for (const part of system.parts) geminiPart(part, pieces);
    total += tokensOf(pieces);
  }
  for (const content of body.contents as { parts: Json[] }[]) {
    const pieces = empty();
    for (const part of content.parts) geminiPart(part, pieces);
    total += tokensOf(pieces);
  }
  return total;
}

/** Raw estimator tokens of what a native route's body sends (tools excluded). */
export function bodyTokens(route: Exclude<RouteId, 'chat'>, body: Record<string, unknown>): number {
  if (route === 'responses') return responsesTokens(body);
  if (route === 'messages') return messagesTokens(body);
  return geminiTokens(body);
}
