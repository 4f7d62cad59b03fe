/**
 * What passed-back native items (encrypted reasoning, signed thinking, thought signatures) add to their
 * messages' sizes, recorded beside a request (`sent.native`, by the message's first call id) so a replay of the
 * recording — which has the history but not the items — measures each message as the live trim did and lands on
 * the same cuts (docs/report.md "What a recording holds"). Pure.
 */
import type { AssistantLayout } from '../routes/nativeReplay';
import type { MessageSize, SizeMemo } from '../trim/messageSize';
import type { WireMessage } from '../wire/wireTypes';

/** Call id of an assistant message's first tool call → [tokens, bytes] its native items add. */
export type NativeSizes = Record<string, [number, number]>;

/** The key a message's native items are remembered and recorded under (as layoutLookup does). */
export function nativeKey(message: WireMessage): string | undefined {
  return message.role === 'assistant' && message.tool_calls?.length ? message.tool_calls[0].id : undefined;
}

/** The native sizes of every message of `messages` that has a layout. */
export function nativeSizesOf(messages: readonly WireMessage[], layoutOf: ((message: WireMessage) => AssistantLayout | undefined) | undefined, memo: SizeMemo): NativeSizes {
  const sizes: NativeSizes = {};
  if (!layoutOf) return sizes;
  for (const message of messages) {
    const key = nativeKey(message);
    const layout = key === undefined ? undefined : layoutOf(message);
    if (key === undefined || !layout) continue;
    const size = memo.sizeOf(message, layout);
    if (size.nativeTokens || size.nativeBytes) sizes[key] = [size.nativeTokens ?? 0, size.nativeBytes ?? 0];
  }
  return sizes;
}

/** A replay's size hook from recorded native sizes: what to add to a message measured alone. */
export function recordedNativeOf(sizes: ReadonlyMap<string, readonly [number, number]>): (message: WireMessage) => MessageSize | undefined {
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
