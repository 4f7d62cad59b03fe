/** Reading and validating what clients send: bodies, headers, scripted replies. */
import type { IncomingMessage } from 'node:http';
import type { ScriptedReply } from './types';
import type { PromptBody } from '../cacheModel/prefixCache';
import { isRecord } from '../core/util/jsonFields';

export function readRawBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Parsed JSON, undefined for an empty body, or the raw text when it is not JSON (recorded as-is). */
export function parseBody(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}

export function hasBearer(req: IncomingMessage, key: string): boolean {
  return headerValue(req, 'authorization') === `Bearer ${key}`;
}

export interface ChatBody extends PromptBody {
  model?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown };
}

export function isChatBody(body: unknown): body is ChatBody {
  return isRecord(body) && Array.isArray(body.messages);
}

export function wantsUsageInStream(body: ChatBody): boolean {
  return body.stream_options?.include_usage === true;
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** Accepts a ScriptedReply object or its JSON text; throws with a readable message otherwise. */
export function parseScriptedReply(raw: unknown): ScriptedReply {
  const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('A scripted reply must be a JSON object');
  const reply = value as ScriptedReply;
  if (!isOptionalString(reply.text) || !isOptionalString(reply.reasoning) || !isOptionalString(reply.finishReason)) {
    throw new Error('text, reasoning and finishReason must be strings');
  }
  const callsOk =
    reply.toolCalls === undefined ||
    (Array.isArray(reply.toolCalls) &&
      reply.toolCalls.every((call) => typeof call?.name === 'string' && typeof call.arguments === 'string' && isOptionalString(call.id)));
  if (!callsOk) throw new Error('toolCalls must be [{ id?, name, arguments }] with string fields');
  return reply;
}
