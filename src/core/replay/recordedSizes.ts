/**
 * A replay's sizes: a recording has the history but not the native items (encrypted reasoning, signed thinking,
 * thought signatures) the live request passed back, so each message is measured as the live trim measured it — its
 * own size plus what its recorded native items added (`sent.native`, trim/messageSize.ts) — by decorating the size
 * memo the replay hands to the one planTrim. The live trim knows nothing of recordings.
 */
import { SizeMemo, type MessageSize, recordedNativeOf, type NativeSizeMap } from '../trim/messageSize';
import type { AssistantLayout } from '../answer/nativeReplay';
import type { WireMessage } from '../wire/wireTypes';

/** `memo` itself when nothing was recorded; else a memo whose sizes add the recorded native sizes. */
export function withRecordedSizes(memo: SizeMemo, native: NativeSizeMap | undefined): SizeMemo {
  return native && native.size > 0 ? new RecordedSizes(memo, recordedNativeOf(native)) : memo;
}

class RecordedSizes extends SizeMemo {
  constructor(
    private readonly inner: SizeMemo,
    private readonly recordedOf: (message: WireMessage) => MessageSize | undefined,
  ) {
    // Its own table stays empty: every size comes from the inner memo.
    super(1);
  }

  override sizeOf(message: WireMessage, layout?: AssistantLayout): MessageSize {
    const size = this.inner.sizeOf(message, layout);
    const recorded = this.recordedOf(message);
    if (!recorded) return size;
    return { tokens: size.tokens + recorded.tokens, bytes: size.bytes + recorded.bytes, nativeTokens: (size.nativeTokens ?? 0) + recorded.tokens, nativeBytes: (size.nativeBytes ?? 0) + recorded.bytes };
  }
}
