/**
 * Anthropic Messages stream events → neutral events (core/answer/wireEvent.ts). Translation only: blocks arrive
 * as start / deltas / stop by `index`; text and thinking deltas pass on as they come; a tool_use block is a call
 * keyed by its index (its id the model's), closed at its stop; each thinking / redacted_thinking block is kept whole
 * with its signature to be passed back unmodified. Usage: message_start's, then each cumulative message_delta's,
 * merged field by field. `ping` is a keep-alive (OpenCode's cost ping after message_stop carries the cost).
 */
import { AnswerReader } from '../../answer/answerReader';
import type { WireEvent, WireReader } from '../../answer/wireEvent';
import { numberField, recordField, stringField, isRecord } from '../../util/jsonFields';

type Payload = Record<string, unknown>;

interface OpenBlock {
  type: string;
  start: Payload;
  sawJson: boolean;
  thinking: string;
  signature: string;
}

const STOP_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter' };

export class MessagesWire implements WireReader {
  private readonly blocks = new Map<number, OpenBlock>();

  read(data: unknown): WireEvent[] {
    if (!isRecord(data)) return [{ kind: 'malformed', raw: String(data) }];
    const p = data;
    switch (p.type) {
      case 'message_start':
        return usageOf(isRecord(p.message) ? p.message.usage : undefined);
      case 'content_block_start':
        return this.blockStart(numberField(p.index, -1), recordField(p.content_block));
      case 'content_block_delta':
        return this.blockDelta(numberField(p.index, -1), recordField(p.delta));
      case 'content_block_stop':
        return this.blockStop(numberField(p.index, -1));
      case 'message_delta':
        return this.messageDelta(p);
      case 'message_stop':
        return [{ kind: 'end' }];
    }
    return [{ kind: 'keepAlive' }];
  }

  private blockStart(index: number, block: Payload): WireEvent[] {
    const open: OpenBlock = { type: stringField(block.type), start: block, sawJson: false, thinking: stringField(block.thinking), signature: stringField(block.signature) };
    this.blocks.set(index, open);
    if (open.type === 'text') return [{ kind: 'text', text: stringField(block.text) }];
    if (open.type === 'thinking') return [{ kind: 'thinking', text: open.thinking }];
    if (open.type === 'tool_use') return [{ kind: 'toolPart', key: String(index), id: stringField(block.id), name: stringField(block.name) }];
    return [{ kind: 'keepAlive' }];
  }

  private blockDelta(index: number, delta: Payload): WireEvent[] {
    const open = this.blocks.get(index);
    if (delta.type === 'text_delta') return [{ kind: 'text', text: stringField(delta.text) }];
    if (!open) return [{ kind: 'keepAlive' }];
    if (delta.type === 'input_json_delta') {
      open.sawJson = true;
      return [{ kind: 'toolPart', key: String(index), args: stringField(delta.partial_json) }];
    }
    if (delta.type === 'thinking_delta') {
      open.thinking += stringField(delta.thinking);
      return [{ kind: 'thinking', text: stringField(delta.thinking) }];
    }
    if (delta.type === 'signature_delta') open.signature += stringField(delta.signature);
    return [{ kind: 'keepAlive' }];
  }

  private blockStop(index: number): WireEvent[] {
    const open = this.blocks.get(index);
    this.blocks.delete(index);
    if (!open) return [{ kind: 'keepAlive' }];
    if (open.type === 'tool_use') {
      // Some Anthropic-compatible servers put the whole input on the start block and send no deltas.
      const input = open.start.input;
      const whole = !open.sawJson && isRecord(input) && Object.keys(input).length > 0 ? JSON.stringify(input) : undefined;
      return [{ kind: 'toolEnd', key: String(index), args: whole }];
    }
    if (open.type === 'thinking') return [{ kind: 'native', item: { type: 'thinking', thinking: open.thinking, signature: open.signature } }];
    if (open.type === 'redacted_thinking') return [{ kind: 'native', item: { type: 'redacted_thinking', data: stringField(open.start.data) } }];
    return [{ kind: 'keepAlive' }];
  }

  private messageDelta(p: Payload): WireEvent[] {
    const delta = recordField(p.delta);
    const reason = stringField(delta.stop_reason);
    const events: WireEvent[] = reason ? [{ kind: 'finish', reason: STOP_REASONS[reason] ?? reason, wire: reason }] : [];
    return [...events, ...usageOf(p.usage)];
  }

  /** Open tool_use blocks stay open: the assembler drops them (their input was cut off). */
  end(): WireEvent[] {
    return [];
  }

  abandon(): WireEvent[] {
    return [];
  }
}

function usageOf(raw: unknown): WireEvent[] {
  return isRecord(raw) ? [{ kind: 'usage', raw, shape: 'anthropic', merge: 'fields' }] : [{ kind: 'keepAlive' }];
}

export const newMessagesReader = (seed?: string): AnswerReader => new AnswerReader('messages', new MessagesWire(), seed);
