/**
 * What passed-back native items (encrypted reasoning, signed thinking, thought signatures) add to their
 * messages' sizes, recorded beside a request (`sent.native`, by the message's first call id) so a replay of the
 * recording — which has the history but not the items — measures each message as the live trim did and lands on
 * the same cuts (docs/report.md "What a recording holds"). Pure.
 */
import { nativeKey } from '../answer/nativeReplay';
import type { MessageSize } from './messageSize';
import type { WireMessage } from '../wire/wireTypes';

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
