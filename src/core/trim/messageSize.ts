/**
 * Estimated tokens and wire bytes of one message, memoized so a request costs work only for messages not seen
 * before. VS Code hands us fresh objects every turn, so identity cannot be the key: the key is the message's
 * content, exactly (messageKey below: short keys as they are, long ones by their sha256), so two messages share a key
 * only when they have the same size — a memo hit can never move the cut. The one key scheme of the trim's memos:
 * messages, remembered native layouts and the tools block (and the report's interner) all key through it.
 *
 * Also what passed-back native items (encrypted reasoning, signed thinking, thought signatures) add to their
 * messages' sizes, recorded beside a request (`sent.native`, by the message's first call id) so a replay of the
 * recording — which has the history but not the items — measures each message as the live trim did and lands on
 * the same cuts (docs/report.md "What a recording holds").
 */
import { nativeKey, type AssistantLayout } from '../answer/nativeReplay';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { estimateTextTokens, type TextScan } from '../tokens/estimate';
// The same per-message and tool-size rules as provideTokenCount, so the two counts agree.
import { messageTokenSplit, toolsTokens, wireMessagePieces, wireToolPieces } from '../tokens/messageTokens';
import { BoundedMap } from '../util/boundedMap';

import { hashId } from '../util/hashId';

export interface MessageSize {
  tokens: number;
  bytes: number;
  /** Of `tokens`, what the remembered native items add over the message alone (0 without a layout). */
  nativeTokens?: number;
  /** Of `bytes`, the same. */
  nativeBytes?: number;
}

export class SizeMemo {
  private readonly sizes: BoundedMap<string, MessageSize>;
  hits = 0;
  misses = 0;

  constructor(capacity = 50_000) {
    this.sizes = new BoundedMap(capacity);
  }

  /** The message's size, its remembered layout (any route; none when evicted or never recorded) included. */
  sizeOf(message: WireMessage, layout?: AssistantLayout): MessageSize {
    const key = layout ? `${messageKey(message)}|L${layoutKey(layout)}` : messageKey(message);
    const known = this.sizes.get(key);
    if (known) {
      this.hits++;
      return known;
    }
    this.misses++;
    const size = measureMessage(message, layout);
    this.sizes.set(key, size);
    return size;
  }

  get size(): number {
    return this.sizes.size;
  }
}

/** The native items of a layout, in order (its text and call slots are the message's own content). */
export function nativeItems(layout: AssistantLayout | undefined): Record<string, unknown>[] {
  return (layout?.slots ?? []).flatMap((slot) => (slot.kind === 'native' ? [slot.item] : []));
}

/**
 * Tokens and wire bytes in one pass over the text: the estimator also counts what JSON escaping adds, so
 * the bytes are the JSON of the message's frame (its texts blanked, a few hundred bytes) plus each text's
 * UTF-8 length and escapes — the same number as Buffer.byteLength(JSON.stringify(message)), without
 * serializing megabytes (it was a third of a cold trim). With a layout, plus the native items' JSON (their
 * thought text counted once, see nativeBytes).
 */
export function measureMessage(message: WireMessage, layout?: AssistantLayout): MessageSize {
  let textBytes = 0;
  const countText = (text: string): number => {
    const size = measureText(text);
    textBytes += size.bytes;
    return size.tokens;
  };
  const items = nativeItems(layout);
  const pieces = wireMessagePieces(message, items);
  const { tokens, nativeTokens } = messageTokenSplit(pieces, countText);
  const bytes = Buffer.byteLength(JSON.stringify(frameOf(message))) + textBytes;
  const added = items.length > 0 ? nativeBytes(items, pieces.reasoning, pieces.native?.thoughts) - jsonBytes(pieces.native?.thoughts ?? []) : 0;
  // The thought text is in textBytes either way (counted once): with it, `added` is exactly with − without.
  return { tokens, nativeTokens, bytes: bytes + added, nativeBytes: items.length > 0 ? added + jsonBytes(pieces.native?.thoughts ?? []) : 0 };
}

/**
 * One text's raw estimator tokens and the bytes it takes inside a JSON body: UTF-8 plus what escaping adds
 * (quotes, backslashes, newlines, control characters). The one text measure of the trim: the truncation sizes
 * its cuts with it too, so a cut frees what the excess was counted in.
 */
export function measureText(text: string): { tokens: number; bytes: number } {
  const scan: TextScan = { jsonEscapeBytes: 0 };
  const tokens = estimateTextTokens(text, scan);
  return { tokens, bytes: Buffer.byteLength(text) + scan.jsonEscapeBytes };
}

/**
 * Bytes the native items add: their JSON (what a native route sends), less the thought text sent both as the
 * reasoning (chat) and inside the items (native routes) — no route sends both, so it is counted once.
 */
function nativeBytes(items: readonly unknown[], reasoning: string | undefined, thoughts: readonly string[] = []): number {
  return Buffer.byteLength(JSON.stringify(items)) - Math.min(reasoning ? jsonBytes([reasoning]) : 0, jsonBytes(thoughts));
}

/** JSON-escaped UTF-8 bytes of strings, without their quotes. */
function jsonBytes(texts: readonly string[]): number {
  let total = 0;
  for (const text of texts) total += Buffer.byteLength(JSON.stringify(text)) - 2;
  return total;
}

/**
 * The message with every text the token rule counts blanked (content and text parts, reasoning, tool-call
 * names and arguments) and image data left out: image data is not text, it is billed per image, and it would
 * dwarf the byte ceiling.
 */
function frameOf(message: WireMessage): WireMessage {
  const content = typeof message.content === 'string' ? '' : Array.isArray(message.content)
    ? message.content.map((part) => (part.type === 'text' ? { ...part, text: '' } : { ...part, image_url: { ...part.image_url, url: '' } }))
    : message.content;
  if (message.role === 'tool' && message.images) return { ...message, content: '', images: message.images.map((image) => ({ ...image, image_url: { url: '' } })) };
  if (message.role !== 'assistant') return { ...message, content } as WireMessage;
  return {
    ...message,
    content,
    ...(message.reasoning_content ? { reasoning_content: '' } : {}),
    ...(message.tool_calls ? { tool_calls: message.tool_calls.map((call) => ({ ...call, function: { ...call.function, name: '', arguments: '' } })) } : {}),
  } as WireMessage;
}

/** The tools block of a request: the tool-size rule for tokens, its JSON for bytes. */
export function measureTools(tools: readonly WireTool[]): MessageSize {
  if (tools.length === 0) return { tokens: 0, bytes: 0 };
  return { tokens: toolsTokens(tools.map(wireToolPieces), estimateTextTokens), bytes: Buffer.byteLength(JSON.stringify(tools)) };
}

/** Up to this length a key is the text itself; a longer one is its sha256 (~3 ms per MB, one hash per message). */
const KEY_TEXT_MAX = 256;

/**
 * The one memo key of a text: the text itself (`<length>:<text>`) while short, else `#<sha256><u|w><length>;`.
 * Self-delimiting, so keys joined in a fixed order stay distinct; exact but for a sha256 collision. Well-formed text
 * hashes as UTF-8 (the faster); text with a lone surrogate as UTF-16, since UTF-8 would fold it into U+FFFD.
 */
export function contentKey(text: string): string {
  if (text.length <= KEY_TEXT_MAX) return `${text.length}:${text}`;
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed?.() === true;
  return `#${hashId(wellFormed ? text : Buffer.from(text, 'utf16le'), 32)}${wellFormed ? 'u' : 'w'}${text.length};`;
}

/** Keys by object identity: a wire message, a remembered layout or a tools block is never changed once built. */
const messageKeys = new WeakMap<WireMessage, string>();
const layoutKeys = new WeakMap<AssistantLayout, string>();
const toolsKeys = new WeakMap<readonly WireTool[], string>();

/**
 * The memo's key of a message (also the report's identity of a message: MessageInterner in core/report/requestLog.ts):
 * the JSON of its frame (every field but its texts) and each text length-prefixed, in the frame's order, as one
 * contentKey (one hash per message: creating a hash costs more than hashing a few KB). Equal keys mean equal
 * messages, so equal sizes: a collision cannot move the cut. Computed once per message object.
 */
export function messageKey(message: WireMessage): string {
  let key = messageKeys.get(message);
  if (key === undefined) {
    let joined = JSON.stringify(frameOf(message));
    for (const text of textsOf(message)) joined += `${text.length}:${text}`;
    key = contentKey(joined);
    messageKeys.set(message, key);
  }
  return key;
}

/** The key of a remembered layout's native items (its text and call slots are the message's own). */
function layoutKey(layout: AssistantLayout): string {
  let key = layoutKeys.get(layout);
  if (key === undefined) layoutKeys.set(layout, (key = contentKey(JSON.stringify(nativeItems(layout)))));
  return key;
}

/** The key of a tools block: its JSON, exactly (one serialization per request, shared with the report's interner). */
export function toolsKey(tools: readonly WireTool[]): string {
  let key = toolsKeys.get(tools);
  if (key === undefined) toolsKeys.set(tools, (key = contentKey(JSON.stringify(tools))));
  return key;
}

const toolsSizes = new BoundedMap<string, MessageSize>(32);

/** The tools block's size: the same block on almost every request, measured once (300 KB of schemas take a while). */
export function toolsSize(tools: readonly WireTool[]): MessageSize {
  if (tools.length === 0) return { tokens: 0, bytes: 0 };
  const key = toolsKey(tools);
  let size = toolsSizes.get(key);
  if (!size) toolsSizes.set(key, (size = measureTools(tools)));
  return size;
}

/**
 * Every text frameOf blanks, in the frame's order: with the frame, the whole message. Image data stands in as its
 * length and 32 evenly spaced 16-character slices, not whole: a fitted photo is megabytes, and hashing it on every
 * new message object blocked the extension host (58 ms for a 12 MP tool image). A size never depends on image
 * data (frameOf blanks it; an image is a flat price), so this cannot move the cut; the report's interner could
 * take two images for one only if they agree in length and in every slice.
 */
function textsOf(message: WireMessage): string[] {
  const texts: string[] = [];
  if (typeof message.content === 'string') texts.push(message.content);
  else if (Array.isArray(message.content)) for (const part of message.content) texts.push(part.type === 'text' ? part.text : imageDataKey(part.image_url.url));
  if (message.role === 'tool') for (const image of message.images ?? []) texts.push(imageDataKey(image.image_url.url));
  if (message.role === 'assistant') {
    if (message.reasoning_content) texts.push(message.reasoning_content);
    for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
  }
  return texts;
}

const IMAGE_SLICES = 32;
const IMAGE_SLICE_CHARS = 16;

/** Image data as the memo key reads it: short data whole, long data by its length and evenly spaced slices. */
export function imageDataKey(url: string): string {
  if (url.length <= KEY_TEXT_MAX) return url;
  let key = `image:${url.length}:`;
  const stride = Math.floor((url.length - IMAGE_SLICE_CHARS) / (IMAGE_SLICES - 1));
  for (let i = 0; i < IMAGE_SLICES; i++) key += url.slice(i * stride, i * stride + IMAGE_SLICE_CHARS);
  return key;
}

/** Call id of an assistant message's first tool call → [tokens, bytes] its native items add. */
export type NativeSizes = Record<string, [number, number]>;

/** The same, as a replay keeps what the lines recorded so far. */
export type NativeSizeMap = ReadonlyMap<string, readonly [number, number]>;

/**
 * The native sizes of the messages that have them, from the sizes the trim already measured (one per message,
 * in order): no second measuring pass.
 */
export function nativeSizesOf(messages: readonly WireMessage[], sizes: readonly MessageSize[]): NativeSizes {
  const native: NativeSizes = {};
  messages.forEach((message, i) => {
    const { nativeTokens = 0, nativeBytes = 0 } = sizes[i];
    const key = nativeTokens > 0 || nativeBytes > 0 ? nativeKey(message) : undefined;
    if (key !== undefined) native[key] = [nativeTokens, nativeBytes];
  });
  return native;
}

/** A replay's size hook from recorded native sizes: what to add to a message measured alone. */
export function recordedNativeOf(sizes: NativeSizeMap): (message: WireMessage) => MessageSize | undefined {
  return (message) => {
    const key = nativeKey(message);
    const size = key === undefined ? undefined : sizes.get(key);
    return size && { tokens: size[0], bytes: size[1], nativeTokens: size[0], nativeBytes: size[1] };
  };
}

/** A recorded `sent.native` checked (non-negative integers); throws a message naming the field. */
export function checkedNativeSizes(value: unknown): NativeSizes {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('sent.native: expected an object');
  const sizes: NativeSizes = {};
  for (const [key, size] of Object.entries(value)) {
    const ok = Array.isArray(size) && size.length === 2 && size.every((n) => Number.isInteger(n) && n >= 0);
    if (!ok) throw new Error(`sent.native.${key}: expected [tokens, bytes]`);
    sizes[key] = [size[0], size[1]];
  }
  return sizes;
}
