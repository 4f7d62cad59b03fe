/**
 * Gemini on the wire (`streamGenerateContent?alt=sse`: one candidate per chunk, thought parts, whole
 * functionCall parts with the thought signature on the first, usageMetadata cumulative or on the last chunk
 * only), read by `@google/genai`'s `generateContentStream`, its chunks merged.
 */
import type { Answer } from './answerArb';
import { sse, tokenCountOf, type Delivered, type RouteCase } from './delivered';
import { geminiOracle } from './sdkClients';

type Part = Record<string, unknown>;

/** 0: full usage on the last chunk only; 1: the usage so far on every chunk; 2: no cache or thoughts fields. */
function usageOf(a: Answer, last: boolean): Record<string, unknown> | undefined {
  const { prompt, cached, output, thoughts } = a.counts;
  if (a.usageShape < 0 || (a.usageShape !== 1 && !last)) return undefined;
  const candidates = last ? output : Math.floor(output / 2);
  if (a.usageShape === 2) return { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates };
  return { promptTokenCount: prompt, cachedContentTokenCount: cached, candidatesTokenCount: candidates, thoughtsTokenCount: thoughts, totalTokenCount: prompt + candidates + thoughts };
}

export function geminiChunks(a: Answer): Record<string, unknown>[] {
  const groups: Part[][] = [];
  const calls: Part[] = [];
  for (const block of a.blocks) {
    if (block.kind === 'thinking') groups.push(...block.pieces.map((text) => [{ text, thought: true }]));
    else if (block.kind === 'text') groups.push(...block.pieces.map((text) => [{ text }]));
    else calls.push({ functionCall: { name: block.name, args: block.args } });
  }
  const signature = a.blocks.find((b) => b.kind === 'thinking')?.signature;
  if (calls.length) {
    if (signature) calls[0] = { ...calls[0], thoughtSignature: signature };
    groups.push(calls); // parallel calls arrive together, in one chunk
  }
  const finishReason = calls.length || a.finish === 'stop' ? 'STOP' : 'MAX_TOKENS';
  return groups.map((parts, i) => {
    const last = i === groups.length - 1;
    const usageMetadata = usageOf(a, last);
    const candidate = { content: { role: 'model', parts }, index: 0, ...(last ? { finishReason } : {}) };
    return { candidates: [candidate], ...(usageMetadata ? { usageMetadata } : {}), modelVersion: 'diff-gemini', responseId: 'r-diff' };
  });
}

export function geminiUsage(raw: Record<string, unknown> | undefined): Delivered['usage'] {
  if (!raw || Object.keys(raw).length === 0) return undefined; // empty usage is no usage
  const context = tokenCountOf(raw.promptTokenCount) + tokenCountOf(raw.toolUsePromptTokenCount);
  return { context, cached: tokenCountOf(raw.cachedContentTokenCount), cacheWrite: 0, completion: tokenCountOf(raw.candidatesTokenCount) + tokenCountOf(raw.thoughtsTokenCount) };
}

export async function geminiOracleRead(origin: string): Promise<Delivered> {
  const stream = await geminiOracle(origin).models.generateContentStream({ model: 'diff-gemini', contents: 'hi' });
  const merged: Delivered = { text: '', thinking: '', calls: [] };
  let usage: Record<string, unknown> | undefined;
  for await (const chunk of stream) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.functionCall) merged.calls.push({ name: part.functionCall.name ?? '', input: part.functionCall.args ?? {} });
      else if (part.thought) merged.thinking += part.text ?? '';
      else merged.text += part.text ?? '';
    }
    if (chunk.usageMetadata) usage = chunk.usageMetadata as Record<string, unknown>;
  }
  return { ...merged, usage: geminiUsage(usage) };
}

export const GEMINI_CASE: RouteCase = { route: 'gemini', usageShapes: 3, noUsage: true, encode: (a) => geminiChunks(a).map((c) => sse(c)).join(''), oracle: geminiOracleRead };
