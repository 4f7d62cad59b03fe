/**
 * What a 200 body is when its content type does not say: the first bytes decide. Some servers send SSE without
 * the right type (it must still stream), some a JSON body without any type, some plain text (an error, a proxy's
 * notice). Reads only until the first non-blank character, then hands back a body that still starts at byte 0.
 */

export type BodyKind = 'sse' | 'json' | 'text' | 'empty';

const SSE_START = /^(data|event|id|retry)?:/;

export interface PeekedBody {
  kind: BodyKind;
  body: ReadableStream<Uint8Array> | null;
}

export async function peekBody(body: ReadableStream<Uint8Array> | null): Promise<PeekedBody> {
  if (!body) return { kind: 'empty', body };
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  const utf8 = new TextDecoder();
  let text = '';
  let done = false;
  while (!done && text.replace(/^\uFEFF/, '').trimStart().length < 8) {
    const next = await reader.read();
    done = next.done;
    if (next.value) {
      head.push(next.value);
      text += utf8.decode(next.value, { stream: true });
    }
  }
  const start = text.replace(/^\uFEFF/, '').trimStart();
  const kind: BodyKind = start === '' ? 'empty' : start.startsWith('{') || start.startsWith('[') ? 'json' : SSE_START.test(start) ? 'sse' : 'text';
  return { kind, body: replayed(head, reader, done) };
}

/** The bytes already read, then the rest of the original body. */
function replayed(head: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, done: boolean): ReadableStream<Uint8Array> {
  let pending = [...head];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending.length > 0) {
        for (const chunk of pending) controller.enqueue(chunk);
        pending = [];
        return;
      }
      if (done) return controller.close();
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** A body as text, at most about `max` characters (the rest is not read: the request is closed). */
export async function bodyText(body: ReadableStream<Uint8Array> | null, max: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const utf8 = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + utf8.decode();
    text += utf8.decode(value, { stream: true });
    if (text.length >= max) {
      await reader.cancel().catch(() => undefined);
      return text.slice(0, max);
    }
  }
}
