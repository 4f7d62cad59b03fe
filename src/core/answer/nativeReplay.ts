/**
 * Native items an answer must get back verbatim on later turns — Responses `reasoning` items (with
 * encrypted_content) and Anthropic `thinking` / `redacted_thinking` blocks (with signatures) — kept outside
 * the neutral history, keyed by the answer's first tool-call id (the same key as ReasoningMemory).
 *
 * Why not on the wire message: the trim measures the neutral history; items that exist only on some routes
 * would move its cut with the route. The trim still counts them: each message's layout, whatever its route
 * (layoutOf), is part of that message's size on every route alike (docs/routes.md). Keyed by call id because
 * only a tool-call turn needs them back (both APIs drop the reasoning of turns that ended in plain text). A
 * layout remembers the order the answer's output arrived in — native items, the text, each call — so they are
 * passed back in place.
 */
import type { WireMessage } from '../wire/wireTypes';
import { BoundedMap, CallIdMemory } from '../util/boundedMap';
import { filledString } from '../util/jsonFields';
import type { RouteId } from '../routeId';

export type LayoutSlot = { kind: 'native'; item: Record<string, unknown> } | { kind: 'text' } | { kind: 'call'; callId: string };

export interface AssistantLayout {
  route: RouteId;
  slots: LayoutSlot[];
}

export interface NativeReplay {
  /** The layout of the answer whose first tool call is callId, when it was produced on this route. */
  layoutFor(callId: string, route: RouteId): AssistantLayout | undefined;
  /**
   * The layout of that answer whatever its route: what the trim measures (docs/routes.md), so the cut does not
   * depend on the route. A replay without it adds nothing to the measure.
   */
  layoutOf?(callId: string): AssistantLayout | undefined;
}

/**
 * What the trim asks for each message: the layout remembered under an assistant message's first call id,
 * whatever route recorded it. None for other messages, for a layout evicted or never recorded (then nothing
 * native is sent either), and when the replay cannot say (no layoutOf).
 */
export function layoutLookup(replay: NativeReplay | undefined): ((message: WireMessage) => AssistantLayout | undefined) | undefined {
  if (!replay?.layoutOf) return undefined;
  return (message) => {
    const key = nativeKey(message);
    return key === undefined ? undefined : replay.layoutOf?.(key);
  };
}

/** The key an answer's native items are remembered (and recorded) under: its first tool call's id. */
export function nativeKey(message: WireMessage): string | undefined {
  return message.role === 'assistant' && message.tool_calls?.length ? message.tool_calls[0].id : undefined;
}

/**
 * The memory's bounds (docs/routes.md, "How much the native memory holds"). Sized so that every layout one
 * conversation still sends fits at once: the trim keeps a request's bytes, layouts included, under
 * 4.5 bytes per budget token (budget.ts), about 4.5M characters for a 1M-token window, so 8M characters hold
 * them with room to spare; a turn with a layout costs at least ~300 of those bytes, so the entry count is above
 * what one such request can send (~15,000).
 * Least recently sent or remembered goes first.
 */
export const NATIVE_REPLAY_BOUNDS = {
  /** Characters of the layouts' JSON (with their keys): also about what globalState stores at most. */
  maxChars: 8_000_000,
  maxEntries: 20_000,
  /** Encrypted reasoning can be large; an answer bigger than this is not remembered (it would bloat globalState). */
  maxLayoutChars: 256_000,
} as const;

/**
 * A native item the API can take back: a Responses reasoning item with its encrypted content (under `store: false`
 * one without it is refused: "Item with id 'rs_…' not found"), a thinking block with its signature, a redacted block
 * with its data. Anything else (Gemini's signed-call records) is complete as recorded.
 */
export function isCompleteNative(item: Record<string, unknown>): boolean {
  if (item.type === 'reasoning') return filledString(item.encrypted_content) !== undefined;
  if (item.type === 'thinking') return typeof item.thinking === 'string' && filledString(item.signature) !== undefined;
  if (item.type === 'redacted_thinking') return filledString(item.data) !== undefined;
  return true;
}

/** The layout without incomplete native items, and how many were dropped (the engine logs it once per model). */
export function completeLayout(layout: AssistantLayout): { layout: AssistantLayout; dropped: number } {
  const slots = layout.slots.filter((slot) => slot.kind !== 'native' || isCompleteNative(slot.item));
  const dropped = layout.slots.length - slots.length;
  return { layout: dropped ? { ...layout, slots } : layout, dropped };
}

/** What a layout weighs in the memory: its JSON with its key, as it is persisted. */
const layoutChars = (layout: AssistantLayout, callId = ''): number => JSON.stringify(layout).length + callId.length;

export class NativeReplayMemory extends CallIdMemory<AssistantLayout> implements NativeReplay {
  constructor() {
    super(new BoundedMap<string, AssistantLayout>(NATIVE_REPLAY_BOUNDS.maxEntries, { weigh: layoutChars, maxWeight: NATIVE_REPLAY_BOUNDS.maxChars }));
  }

  /** Remembers an answer's layout when it carries native items and at least one call. */
  remember(given: AssistantLayout | undefined): boolean {
    const layout = given && completeLayout(given).layout;
    const first = layout?.slots.find((slot) => slot.kind === 'call');
    if (!layout || !first || first.kind !== 'call' || !layout.slots.some((slot) => slot.kind === 'native')) return false;
    if (layoutChars(layout) > NATIVE_REPLAY_BOUNDS.maxLayoutChars) return false;
    this.byCallId.set(first.callId, layout);
    return true;
  }

  /** For sending: refreshes recency, so the layouts a conversation still sends are the last to be evicted. */
  layoutFor(callId: string, route: RouteId): AssistantLayout | undefined {
    const layout = this.byCallId.get(callId);
    return layout && layout.route === route ? layout : undefined;
  }

  /**
   * For measuring: reads without refreshing recency, so what the trim measures (cut messages included) never
   * changes which layout is evicted next; only remembering and sending (layoutFor) do.
   */
  layoutOf(callId: string): AssistantLayout | undefined {
    return this.byCallId.peek(callId);
  }

  /** The characters the kept layouts weigh (their JSON with their keys). */
  get chars(): number {
    return this.byCallId.weight;
  }

  /**
   * Restores a persisted memory in its saved order (oldest first), under the same bounds, so it evicts in the
   * order the saved one would have. The layouts passed their validator when loaded (validLayout in
   * core/request/savedRecords.ts); one too big to be remembered is dropped.
   */
  static fromJSON(value: Readonly<Record<string, AssistantLayout>>): NativeReplayMemory {
    const memory = new NativeReplayMemory();
    for (const [callId, saved] of Object.entries(value)) memory.restoreEntry(callId, saved);
    return memory;
  }

  /** One saved layout (validated by validLayout) back into the memory, oldest first, under its bounds. */
  restoreEntry(callId: string, saved: AssistantLayout): void {
    if (layoutChars(saved) > NATIVE_REPLAY_BOUNDS.maxLayoutChars) return;
    // A layout saved by an older version may hold incomplete items: they are never sent back.
    const { layout } = completeLayout(saved);
    if (layout.slots.some((slot) => slot.kind === 'native')) this.byCallId.set(callId, layout);
  }
}

/** Builds a layout while a stream is read: slots in arrival order, the text slot once. */
export class LayoutRecorder {
  private readonly slots: LayoutSlot[] = [];
  private sawNative = false;

  constructor(private readonly route: RouteId) {}

  native(item: Record<string, unknown>): void {
    this.sawNative = true;
    this.slots.push({ kind: 'native', item });
  }

  text(): void {
    if (!this.slots.some((slot) => slot.kind === 'text')) this.slots.push({ kind: 'text' });
  }

  call(callId: string): void {
    this.slots.push({ kind: 'call', callId });
  }

  layout(): AssistantLayout | undefined {
    return this.sawNative ? { route: this.route, slots: [...this.slots] } : undefined;
  }
}
