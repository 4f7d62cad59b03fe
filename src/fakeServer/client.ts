/**
 * Small client helpers for tests and scripts that talk to a fake server over real HTTP: send a chat request,
 * read a streamed body (even one the server cuts), and reassemble what the deltas said.
 */

export function postChat(baseUrl: string, body: object, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

export interface StreamRead {
  text: string;
  /** Set when the connection failed before the body ended (cut, reset). */
  error?: Error;
}

/** Reads a body to its end or to the failure that ended it, keeping whatever arrived before. */
export async function readStream(res: Response): Promise<StreamRead> {
  const decoder = new TextDecoder();
  let text = '';
  if (!res.body) return { text };
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode() };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error: error as Error };
  }
}

/** The payload of every `data:` line, in order, `[DONE]` and broken ones included. */
export function dataPayloads(sseText: string): string[] {
  return sseText
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
}

/** OpenCode's cost chunk after `[DONE]` (`{"choices":[],"cost":"…"}`): not part of the answer. */
export function isCostChunk(payload: string): boolean {
  return payload.startsWith('{"choices":[],"cost":');
}

/** The payloads of the answer itself: every `data:` payload but OpenCode's cost chunk. */
export function answerPayloads(sseText: string): string[] {
  return dataPayloads(sseText).filter((payload) => !isCostChunk(payload));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary wire JSON, probed freely by tests
export type WireJson = any;

export async function jsonOf(res: Response): Promise<WireJson> {
  return res.json();
}

/** Chunk objects of the payloads that are JSON (skips `[DONE]`, malformed frames and the cost chunk). */
export function parsedChunks(sseText: string): WireJson[] {
  const chunks: WireJson[] = [];
  for (const payload of answerPayloads(sseText)) {
    try {
      chunks.push(JSON.parse(payload));
    } catch {
      // [DONE] or a deliberately malformed frame
    }
  }
  return chunks;
}

/** Concatenation of one delta field (`content` or `reasoning_content`) across chunks. */
export function joinedDelta(chunks: readonly WireJson[], field: 'content' | 'reasoning_content'): string {
  return chunks.map((chunk) => chunk.choices?.[0]?.delta?.[field] ?? '').join('');
}

/** The argument pieces of tool call `index`, one entry per chunk that carried some. */
export function toolArgumentPieces(chunks: readonly WireJson[], index = 0): string[] {
  const pieces: string[] = [];
  for (const chunk of chunks) {
    for (const call of chunk.choices?.[0]?.delta?.tool_calls ?? []) {
      if (call.index === index && call.function?.arguments) pieces.push(call.function.arguments);
    }
  }
  return pieces;
}
