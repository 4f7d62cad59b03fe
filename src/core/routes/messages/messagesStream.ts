/**
 * The Messages route's reader and usage. Anthropic Messages stream events → neutral events (core/answer/wireEvent.ts).
 * Each payload is parsed once, by the valibot schema of its `type`: a field of the wrong type reads as a missing one
 * does (no text, index -1); an unknown type is a keep-alive. Translation
 * only: blocks arrive as start / deltas / stop by `index`; text and thinking deltas pass on as they come; a tool_use
 * block is a call keyed by its index (its id the model's), closed at its stop; each thinking / redacted_thinking
 * block is kept whole with its signature to be passed back unmodified. Usage: message_start's, then each cumulative
 * message_delta's, merged field by field. `ping` is a keep-alive (OpenCode's cost ping after message_stop carries
 * the cost).
 */
import * as v from 'valibot';
import { AnswerReader } from '../../answer/answerReader';
import type { WireEvent, WireReader } from '../../answer/wireEvent';
import type { NormalizedUsage } from '../../types';
import { countField, hasUsageField, usageReading, type RawUsage, type UsageParts, type UsageReading } from '../../usage/usage';
import { isRecord } from '../../util/jsonFields';

/**
 * The schemas read only the fields the reader uses, and the reader picks one by the event's `type` (and a delta's):
 * valibot's `variant` does the same dispatch, slower, and every field a schema lists costs time on every payload.
 * A field of the wrong type reads as absent (Optional), so the rest of the payload is kept (docs/issues/012).
 */
const Optional = <S extends v.GenericSchema>(schema: S) => v.fallback(v.optional(schema), undefined);
const Text = Optional(v.string());
const Index = v.fallback(v.number(), -1);
/** Kept as sent, unchecked: usage objects have their own reader (core/usage), a tool's input is the model's. */
const Raw = Optional(v.custom<Record<string, unknown>>(isRecord));
/** An object whose fields all read absent when it is missing or not an object. */
const orEmpty = <S extends v.GenericSchema>(schema: S): v.SchemaWithFallback<S, v.InferOutput<S>> => v.fallback(schema, v.parse(schema, {}));

const MessageStart = v.object({ message: orEmpty(v.object({ usage: Raw })) });
const Block = orEmpty(v.object({ type: Text, text: Text, thinking: Text, signature: Text, id: Text, name: Text, data: Text, input: Raw }));
const BlockStart = v.object({ index: Index, content_block: Block });
const BlockStop = v.object({ index: Index });
const MessageDelta = v.object({ delta: orEmpty(v.object({ stop_reason: Text })), usage: Raw });
/** content_block_delta by `delta.type`: text needs no block, the others add to the open block at `index`. */
const TextDelta = v.object({ delta: v.object({ text: Text }) });
const JsonDelta = v.object({ index: Index, delta: v.object({ partial_json: Text }) });
const ThinkingDelta = v.object({ index: Index, delta: v.object({ thinking: Text }) });
const SignatureDelta = v.object({ index: Index, delta: v.object({ signature: Text }) });
type OpenedBlock = v.InferOutput<typeof Block>;

interface OpenBlock {
  start: OpenedBlock;
  sawJson: boolean;
  thinking: string;
  signature: string;
}

const STOP_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter' };

export class MessagesWire implements WireReader {
  private readonly blocks = new Map<number, OpenBlock>();

  read(data: unknown): WireEvent[] {
    if (!isRecord(data)) return [{ kind: 'malformed', raw: String(data) }];
    switch (data.type) {
      case 'content_block_delta':
        return this.blockDelta(data);
      case 'content_block_start': {
        const p = v.parse(BlockStart, data);
        return this.blockStart(p.index, p.content_block);
      }
      case 'content_block_stop':
        return this.blockStop(v.parse(BlockStop, data).index);
      case 'message_start':
        return usageOf(v.parse(MessageStart, data).message.usage);
      case 'message_delta': {
        const p = v.parse(MessageDelta, data);
        const reason = p.delta.stop_reason;
        const events: WireEvent[] = reason ? [{ kind: 'finish', reason: STOP_REASONS[reason] ?? reason, wire: reason }] : [];
        return [...events, ...usageOf(p.usage)];
      }
      case 'message_stop':
        return [{ kind: 'end' }];
    }
    return [{ kind: 'keepAlive' }];
  }

  private blockStart(index: number, block: OpenedBlock): WireEvent[] {
    this.blocks.set(index, { start: block, sawJson: false, thinking: block.thinking ?? '', signature: block.signature ?? '' });
    if (block.type === 'text') return [{ kind: 'text', text: block.text ?? '' }];
    if (block.type === 'thinking') return [{ kind: 'thinking', text: block.thinking ?? '' }];
    if (block.type === 'tool_use') return [{ kind: 'toolPart', key: String(index), id: block.id ?? '', name: block.name ?? '' }];
    return [{ kind: 'keepAlive' }];
  }

  private blockDelta(data: Record<string, unknown>): WireEvent[] {
    const type = isRecord(data.delta) ? data.delta.type : undefined;
    if (type === 'text_delta') return [{ kind: 'text', text: v.parse(TextDelta, data).delta.text ?? '' }];
    if (type === 'input_json_delta') {
      const p = v.parse(JsonDelta, data);
      const open = this.blocks.get(p.index);
      if (!open) return [{ kind: 'keepAlive' }];
      open.sawJson = true;
      return [{ kind: 'toolPart', key: String(p.index), args: p.delta.partial_json ?? '' }];
    }
    if (type === 'thinking_delta') {
      const p = v.parse(ThinkingDelta, data);
      const open = this.blocks.get(p.index);
      if (!open) return [{ kind: 'keepAlive' }];
      open.thinking += p.delta.thinking ?? '';
      return [{ kind: 'thinking', text: p.delta.thinking ?? '' }];
    }
    if (type === 'signature_delta') {
      const p = v.parse(SignatureDelta, data);
      const open = this.blocks.get(p.index);
      if (open) open.signature += p.delta.signature ?? '';
    }
    return [{ kind: 'keepAlive' }];
  }

  private blockStop(index: number): WireEvent[] {
    const open = this.blocks.get(index);
    this.blocks.delete(index);
    if (!open) return [{ kind: 'keepAlive' }];
    const type = open.start.type;
    if (type === 'tool_use') {
      // Some Anthropic-compatible servers put the whole input on the start block and send no deltas.
      const input = open.start.input;
      const whole = !open.sawJson && input && Object.keys(input).length > 0 ? JSON.stringify(input) : undefined;
      return [{ kind: 'toolEnd', key: String(index), args: whole }];
    }
    if (type === 'thinking') return [{ kind: 'native', item: { type: 'thinking', thinking: open.thinking, signature: open.signature } }];
    if (type === 'redacted_thinking') return [{ kind: 'native', item: { type: 'redacted_thinking', data: open.start.data ?? '' } }];
    return [{ kind: 'keepAlive' }];
  }

  /** Open tool_use blocks stay open: the assembler drops them (their input was cut off). */
  end(): WireEvent[] {
    return [];
  }

  abandon(): WireEvent[] {
    return [];
  }
}

function usageOf(raw: Record<string, unknown> | undefined): WireEvent[] {
  return raw ? [{ kind: 'usage', raw, read: readAnthropicUsage, merge: 'fields' }] : [{ kind: 'keepAlive' }];
}

export const newMessagesReader = (seed?: string): AnswerReader => new AnswerReader('messages', new MessagesWire(), seed);

/**
 * Anthropic usage → NormalizedUsage (the route's usage conversion; the finishing rule is core/usage/usage.ts).
 * `input_tokens` counts only what was neither read from nor written to the cache, so the context is input + cache
 * reads + cache writes. In a stream, `message_start`'s usage and each cumulative `message_delta`'s are merged field by
 * field (core/usage/usage.ts mergeUsage, applied by the assembler).
 */
export function anthropicUsageParts(raw: RawUsage): UsageParts {
  const read = countField(raw, 'cache_read_input_tokens');
  const write = countField(raw, 'cache_creation_input_tokens');
  return {
    shape: 'anthropic',
    contextTokens: countField(raw, 'input_tokens') + read + write,
    cachedTokens: read,
    cacheWriteTokens: write,
    completionTokens: countField(raw, 'output_tokens'),
    reportedTotal: 0, // Anthropic sends no total; a gateway's would likely leave the cache out
  };
}

/** Anthropic usage, or undefined for a record with none of its fields. */
export function readAnthropicUsage(raw: RawUsage): UsageReading | undefined {
  return hasUsageField(raw, 'input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens') ? usageReading(anthropicUsageParts(raw)) : undefined;
}

export function anthropicUsage(raw: unknown): NormalizedUsage | undefined {
  return isRecord(raw) ? readAnthropicUsage(raw)?.usage : undefined;
}
