/**
 * Which call a chat tool-call fragment belongs to. Fragments are keyed by `index`; some gateways send it only on
 * a call's first fragment: a fragment without it belongs to the call with its id, else to the call last added to,
 * unless it brings a new id (then it opens a new call) (docs/issues/013).
 */
import type { WireEvent } from '../../answer/wireEvent';
import type { ToolCallDelta } from '../../stream/chunkShape';

export class ChatCallKeys {
  /** Open calls: index → the id they came with ('' when none yet). */
  private readonly open = new Map<number, string>();
  private current: number | undefined;
  /** Indexes are reused after a finish reason closes the calls; the key stays unique per answer. */
  private round = 0;

  keyOf(fragment: ToolCallDelta): string {
    const index = fragment.index ?? this.indexWithout(fragment.id);
    this.current = index;
    if (!this.open.get(index)) this.open.set(index, fragment.id ?? '');
    return this.key(index);
  }

  /** A finish reason (or the stream's end): every open call is complete, in index order. */
  closeAll(): WireEvent[] {
    const keys = [...this.open.keys()].sort((a, b) => a - b).map((index): WireEvent => ({ kind: 'toolEnd', key: this.key(index) }));
    this.open.clear();
    this.current = undefined;
    if (keys.length > 0) this.round++;
    return keys;
  }

  private key(index: number): string {
    return `${this.round}:${index}`;
  }

  private indexWithout(id: string | undefined): number {
    if (id) for (const [index, openId] of this.open) if (openId === id) return index;
    const current = this.current === undefined ? undefined : this.open.get(this.current);
    if (current !== undefined && !(id && current)) return this.current as number;
    return this.open.size === 0 ? 0 : Math.max(...this.open.keys()) + 1;
  }
}
