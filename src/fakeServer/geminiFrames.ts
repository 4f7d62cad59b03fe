/**
 * A scripted reply as Gemini's `streamGenerateContent?alt=sse` stream: thought parts (`thought: true`), text
 * parts, then the function calls (whole, no ids, as Gemini sends them; the first carries a thoughtSignature on
 * reasoning models), then a last chunk with `finishReason` and `usageMetadata`, then OpenCode's cost frame
 * (`data: {"type":"ping","cost":…}`, no event name). Frames are separated by CRLF CRLF, as Google's are.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_CHUNK_SIZE, splitIntoChunks } from './replies';
import type { NativeFramesInput } from './responsesFrames';

type Part = Record<string, unknown>;

/** A stable fake signature for a call, so a passed-back one can be checked. */
export function fakeThoughtSignature(name: string, args: unknown): string {
  return `gsig_${createHash('sha256').update(`${name}\n${JSON.stringify(args)}`).digest('base64url')}`;
}

const FINISH: Record<string, string> = { stop: 'STOP', tool_calls: 'STOP', length: 'MAX_TOKENS', content_filter: 'SAFETY' };

export function geminiFrame(payload: object): string {
  return `data: ${JSON.stringify(payload)}\r\n\r\n`;
}

export function geminiFrames(input: NativeFramesInput & { signed: boolean }): string[] {
  const { reply } = input;
  const size = reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const chunk = (parts: Part[], extra: Record<string, unknown> = {}): string =>
    geminiFrame({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], modelVersion: input.model, responseId: input.id });
  const frames: string[] = [];
  for (const text of splitIntoChunks(reply.reasoning ?? '', size)) frames.push(chunk([{ text, thought: true }]));
  for (const text of splitIntoChunks(reply.text ?? '', size)) frames.push(chunk([{ text }]));
  (reply.toolCalls ?? []).forEach((call, i) => {
    const args = parseArgs(call.arguments);
    const part: Part = { functionCall: { name: call.name, args } };
    if (input.signed && i === 0) part.thoughtSignature = fakeThoughtSignature(call.name, args);
    frames.push(chunk([part]));
  });
  const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
  frames.push(
    geminiFrame({
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: FINISH[finish] ?? finish.toUpperCase(), index: 0 }],
      usageMetadata: input.usage,
      modelVersion: input.model,
      responseId: input.id,
    }),
  );
  frames.push(geminiFrame({ type: 'ping', cost: input.cost.toFixed(6) }));
  return frames;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // a deliberately invalid reply: the client must refuse it
  }
}

/** Gemini's usageMetadata: promptTokenCount includes the cached tokens; thoughts counted apart from candidates. */
export function geminiUsageObject(promptTokens: number, cachedTokens: number, completion: number, thoughts: number): object {
  const usage: Record<string, number> = { promptTokenCount: promptTokens, candidatesTokenCount: Math.max(0, completion - thoughts), totalTokenCount: promptTokens + completion };
  if (cachedTokens > 0) usage.cachedContentTokenCount = cachedTokens;
  if (thoughts > 0) usage.thoughtsTokenCount = thoughts;
  return usage;
}
