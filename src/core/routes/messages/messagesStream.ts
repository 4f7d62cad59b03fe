/**
 * The Messages route's reader and usage. Anthropic Messages stream events → neutral events (core/answer/wireEvent.ts).
 * Each payload is parsed once by the valibot schema of its `type` (MessagesEvent): a field read with the wrong type
 * reads as its neutral value ('' / -1 / {}), as a missing one does; an unknown type is a keep-alive. Translation
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
import { normalizeUsage } from '../../usage/normalizeUsage';
import { isRecord } from '../../util/isRecord';

/** A text field: a missing or mistyped one adds nothing. */
const Text = v.fallback(v.string(), '');
const Index = v.fallback(v.number(), -1);
/** Kept as sent, unchecked: usage objects have their own reader (core/usage), a tool's input is the model's. */
const Raw = v.fallback(v.optional(v.custom<Record<string, unknown>>(isRecord)), undefined);
/** An object whose fields all read neutral when it is missing or not an object. */
const orEmpty = <S extends v.GenericSchema>(schema: S): v.SchemaWithFallback<S, v.InferOutput<S>> => v.fallback(schema, v.parse(schema, {}));

const Block = orEmpty(v.object({ type: Text, text: Text, thinking: Text, signature: Text, id: Text, name: Text, data: Text, input: Raw }));
const Delta = orEmpty(v.object({ type: Text, text: Text, partial_json: Text, thinking: Text, signature: Text }));
const MessagesEvent = v.variant('type', [
  v.object({ type: v.literal('message_start'), message: orEmpty(v.object({ usage: Raw })) }),
  v.object({ type: v.literal('content_block_start'), index: Index, content_block: Block }),
  v.object({ type: v.literal('content_block_delta'), index: Index, delta: Delta }),
  v.object({ type: v.literal('content_block_stop'), index: Index }),
  v.object({ type: v.literal('message_delta'), delta: orEmpty(v.object({ stop_reason: Text })), usage: Raw }),
  v.object({ type: v.literal('message_stop') }),
]);
type BlockStart = v.InferOutput<typeof Block>;
type BlockDelta = v.InferOutput<typeof Delta>;

interface OpenBlock {
  start: BlockStart;
  sawJson: boolean;
  thinking: string;
  signature: string;
}

const STOP_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter' };

export class MessagesWire implements WireReader {
  private readonly blocks = new Map<number, OpenBlock>();

  read(data: unknown): WireEvent[] {
    if (!isRecord(data)) return [{ kind: 'malformed', raw: String(data) }];
    const parsed = v.safeParse(MessagesEvent, data);
    if (!parsed.success) return [{ kind: 'keepAlive' }];
    const p = parsed.output;
    switch (p.type) {
      case 'message_start':
        return usageOf(p.message.usage);
      case 'content_block_start':
        return this.blockStart(p.index, p.content_block);
      case 'content_block_delta':
        return this.blockDelta(p.index, p.delta);
      case 'content_block_stop':
        return this.blockStop(p.index);
      case 'message_delta': {
        const reason = p.delta.stop_reason;
        const events: WireEvent[] = reason ? [{ kind: 'finish', reason: STOP_REASONS[reason] ?? reason, wire: reason }] : [];
        return [...events, ...usageOf(p.usage)];
      }
      case 'message_stop':
        return [{ kind: 'end' }];
    }
  }

  private blockStart(index: number, block: BlockStart): WireEvent[] {
    this.blocks.set(index, { start: block, sawJson: false, thinking: block.thinking, signature: block.signature });
    if (block.type === 'text') return [{ kind: 'text', text: block.text }];
    if (block.type === 'thinking') return [{ kind: 'thinking', text: block.thinking }];
    if (block.type === 'tool_use') return [{ kind: 'toolPart', key: String(index), id: block.id, name: block.name }];
    return [{ kind: 'keepAlive' }];
  }

  private blockDelta(index: number, delta: BlockDelta): WireEvent[] {
    const open = this.blocks.get(index);
    if (delta.type === 'text_delta') return [{ kind: 'text', text: delta.text }];
    if (!open) return [{ kind: 'keepAlive' }];
    if (delta.type === 'input_json_delta') {
      open.sawJson = true;
      return [{ kind: 'toolPart', key: String(index), args: delta.partial_json }];
    }
    if (delta.type === 'thinking_delta') {
      open.thinking += delta.thinking;
      return [{ kind: 'thinking', text: delta.thinking }];
    }
    if (delta.type === 'signature_delta') open.signature += delta.signature;
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
    if (type === 'redacted_thinking') return [{ kind: 'native', item: { type: 'redacted_thinking', data: open.start.data } }];
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
  return raw ? [{ kind: 'usage', raw, shape: 'anthropic', merge: 'fields' }] : [{ kind: 'keepAlive' }];
}

export const newMessagesReader = (seed?: string): AnswerReader => new AnswerReader('messages', new MessagesWire(), seed);

/**
 * Anthropic usage → NormalizedUsage, through the one normalizer (core/usage/normalizeUsage.ts). `input_tokens`
 * counts only what was neither read from nor written to the cache, so the context is input + cache reads + cache
 * writes. In a stream, `message_start`'s usage and each cumulative `message_delta`'s are merged field by field
 * (core/usage/mergeUsage.ts, applied by the assembler).
 */
export function anthropicUsage(raw: unknown): NormalizedUsage | undefined {
  return normalizeUsage(raw, 'anthropic');
}
