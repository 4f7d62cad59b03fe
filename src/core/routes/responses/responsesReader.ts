/**
 * Responses stream events → neutral events (core/answer/wireEvent.ts). Translation only. Text, refusal, reasoning
 * summaries and argument deltas pass on raw (never trimmed). A function call is keyed by its output item (the item
 * id; `response.completed`'s output is matched to the streamed items by position, so a call it repeats under
 * another id is the same call); its `call_id` and name come with `output_item.added` or `.done`; its whole
 * arguments with `arguments.done` or `.done`. Reasoning items are kept from `output_item.done` (the `.added` copy
 * may lack the encrypted content) to be passed back verbatim. `response.failed` is an error. The usage of
 * `response.completed` is read by responsesUsageParts below: `input_tokens` already includes the cached tokens
 * (`input_tokens_details.cached_tokens`); `output_tokens` includes reasoning.
 */
import { AnswerReader } from '../../answer/answerReader';
import type { WireEvent, WireReader } from '../../answer/wireEvent';
import { recordField, stringField, isRecord } from '../../util/jsonFields';
import type { NormalizedUsage } from '../../types';
import { countField, hasUsageField, nestedCount, usageReading, type RawUsage, type UsageParts, type UsageReading } from '../../usage/usage';

type Payload = Record<string, unknown>;

const INCOMPLETE_REASONS: Record<string, string> = { max_output_tokens: 'length', content_filter: 'content_filter' };

export class ResponsesWire implements WireReader {
  /** Output position → the item id streamed there. */
  private readonly itemAt = new Map<number, string>();
  /** Whole arguments from `arguments.done`, by key, for an item whose `.done` carries none. */
  private readonly wholeArgs = new Map<string, string>();
  /** Items already announced (a repeated `.added` adds nothing). */
  private readonly added = new Set<string>();

  read(data: unknown): WireEvent[] {
    if (!isRecord(data)) return [{ kind: 'malformed', raw: String(data) }];
    const p = data;
    const delta = stringField(p.delta);
    switch (p.type) {
      case 'response.output_text.delta':
        return [{ kind: 'text', text: delta }];
      case 'response.refusal.delta':
        return [{ kind: 'refusal', text: delta }];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return [{ kind: 'thinking', text: delta }];
      case 'response.output_item.added':
        return this.itemAdded(p);
      case 'response.function_call_arguments.delta':
        return [{ kind: 'toolPart', key: this.keyOf(p, p.item_id), args: delta }];
      case 'response.function_call_arguments.done':
        if (stringField(p.arguments)) this.wholeArgs.set(this.keyOf(p, p.item_id), stringField(p.arguments));
        return [{ kind: 'keepAlive' }];
      case 'response.output_item.done':
        return this.itemDone(p);
      case 'response.completed':
      case 'response.incomplete':
        return this.ended(p);
      case 'response.failed':
        return [{ kind: 'error', error: failure(p) }];
    }
    return [{ kind: 'keepAlive' }];
  }

  private itemAdded(p: Payload): WireEvent[] {
    const item = recordField(p.item);
    if (item.type !== 'function_call') return [{ kind: 'keepAlive' }];
    const key = this.keyOf(p, item.id);
    const first = !this.added.has(key);
    this.added.add(key);
    return [{ kind: 'toolPart', key, id: stringField(item.call_id), name: stringField(item.name), args: first ? stringField(item.arguments) : '' }];
  }

  private itemDone(p: Payload): WireEvent[] {
    const item = recordField(p.item);
    if (item.type === 'reasoning') return [{ kind: 'native', item }];
    if (item.type !== 'function_call') return [{ kind: 'keepAlive' }];
    const key = this.keyOf(p, item.id);
    return [{ kind: 'toolEnd', key, id: stringField(item.call_id), name: stringField(item.name), args: stringField(item.arguments) || this.wholeArgs.get(key) }];
  }

  /**
   * The final response lists every output item: a call whose item events never came (or never finished) is
   * closed from it; one already delivered is not delivered again (same position, same key).
   */
  private ended(p: Payload): WireEvent[] {
    const response = recordField(p.response);
    const events: WireEvent[] = [];
    const output = Array.isArray(response.output) ? response.output : [];
    output.forEach((item, index) => {
      if (!isRecord(item) || item.type !== 'function_call') return;
      const key = this.itemAt.get(index) ?? (stringField(item.id) || `#${index}`);
      events.push({ kind: 'toolEnd', key, id: stringField(item.call_id), name: stringField(item.name), args: stringField(item.arguments) || this.wholeArgs.get(key) });
    });
    if (isRecord(response.usage)) events.push({ kind: 'usage', raw: response.usage, read: readResponsesUsage, merge: 'replace' });
    const details = isRecord(response.incomplete_details) ? stringField(response.incomplete_details.reason) : '';
    if (p.type === 'response.incomplete') events.push({ kind: 'finish', reason: INCOMPLETE_REASONS[details] ?? (details || 'incomplete'), wire: details || 'incomplete' });
    else events.push({ kind: 'finish', reason: 'stop', wire: 'completed' });
    events.push({ kind: 'end' });
    return events;
  }

  /** An item's key: its id (remembered by output position), else its position. */
  private keyOf(p: Payload, itemId: unknown): string {
    const index = typeof p.output_index === 'number' ? p.output_index : undefined;
    const known = index === undefined ? undefined : this.itemAt.get(index);
    if (known) return known;
    const key = stringField(itemId) || `#${index ?? ''}`;
    if (index !== undefined) this.itemAt.set(index, key);
    return key;
  }

  /** Calls whose item never finished stay open: the assembler drops them (their arguments were cut off). */
  end(): WireEvent[] {
    return [];
  }

  abandon(): WireEvent[] {
    return [];
  }
}

function failure(p: Payload): Payload {
  const response = recordField(p.response);
  return isRecord(response.error) ? response.error : { message: 'The model failed to answer (response.failed).' };
}

export const newResponsesReader = (seed?: string): AnswerReader => new AnswerReader('responses', new ResponsesWire(), seed);

export function responsesUsageParts(raw: RawUsage): UsageParts {
  return {
    shape: 'responses',
    contextTokens: countField(raw, 'input_tokens'),
    cachedTokens: nestedCount(raw, 'input_tokens_details', 'cached_tokens'),
    cacheWriteTokens: 0,
    completionTokens: countField(raw, 'output_tokens'),
    reportedTotal: countField(raw, 'total_tokens'),
  };
}

/** Responses usage, or undefined for a record with none of its fields (an empty `usage: {}`). */
export function readResponsesUsage(raw: RawUsage): UsageReading | undefined {
  return hasUsageField(raw, 'input_tokens', 'output_tokens', 'total_tokens', 'input_tokens_details') ? usageReading(responsesUsageParts(raw)) : undefined;
}

export function responsesUsage(raw: unknown): NormalizedUsage | undefined {
  return isRecord(raw) ? readResponsesUsage(raw)?.usage : undefined;
}
