/**
 * The Gemini route's reader and usage. `streamGenerateContent?alt=sse` chunks → neutral events
 * (core/answer/wireEvent.ts). Each chunk is a GenerateContentResponse, parsed once by a valibot schema (Chunk): a
 * field of the wrong type reads as a missing one does. Translation only: `text` parts →
 * text, `thought: true` parts → thinking, each `functionCall` part → a whole call (Gemini sends calls whole),
 * `usageMetadata` → usage (cumulative: the newest replaces), `finishReason` → finish (Gemini has no separate end
 * event). Call ids: Gemini's own when it sends one, else synthesized (synthesizedCallId); a call's signature (and
 * Gemini's id) is a native item placed right before it. A signature can arrive alone on a later, empty part, so
 * calls are passed on at the finish reason (or the end).
 */
import * as v from 'valibot';
import { AnswerReader } from '../../answer/answerReader';
import type { WireEvent, WireReader } from '../../answer/wireEvent';
import type { NormalizedUsage } from '../../types';
import { countField, hasUsageField, usageReading, type RawUsage, type UsageParts, type UsageReading } from '../../usage/usage';
import { hashId } from '../../util/hashId';
import { originalToolName, signedCallItem, type CallSignature } from './geminiBody';
import { isRecord } from '../../util/jsonFields';

/**
 * The schema reads only the fields the reader uses (each one listed costs time on every chunk). A field of the wrong
 * type reads as absent (Optional), so the rest of the chunk is kept (docs/issues/012).
 */
const Optional = <S extends v.GenericSchema>(schema: S) => v.fallback(v.optional(schema), undefined);
const Text = Optional(v.string());
/** Kept as sent, unchecked: usage objects have their own reader (core/usage). */
const Raw = Optional(v.custom<Record<string, unknown>>(isRecord));
/** A part that is not an object reads as an empty one, which adds nothing. */
const GeminiPart = v.fallback(v.object({
  text: Text,
  thought: Optional(v.boolean()),
  thoughtSignature: Text,
  // `args` as sent: arguments that are not an object are refused by the assembler, never run as `{}`.
  functionCall: Optional(v.object({ name: Text, id: Text, args: v.optional(v.unknown()) })),
}), {});
const Candidate = Optional(v.object({ content: Optional(v.object({ parts: Optional(v.array(GeminiPart)) })), finishReason: Text }));
const Chunk = v.object({
  responseId: Text,
  // Only the first candidate is read (the product never asks for more).
  candidates: Optional(v.array(Candidate)),
  usageMetadata: Raw,
  promptFeedback: Optional(v.object({ blockReason: Text })),
});
type ReadPart = v.InferOutput<typeof GeminiPart>;
type ReadFunctionCall = NonNullable<ReadPart['functionCall']>;

interface ReadCall extends CallSignature {
  callId: string;
  name: string;
  args: string;
}

const FINISH: Record<string, string> = {
  STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter', RECITATION: 'content_filter', BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter', SPII: 'content_filter', IMAGE_SAFETY: 'content_filter', LANGUAGE: 'content_filter',
};

export class GeminiWire implements WireReader {
  private readonly held: ReadCall[] = [];
  private count = 0;
  private passed = 0;
  private signed = false;
  private responseId = '';

  read(data: unknown): WireEvent[] {
    if (!isRecord(data)) return [{ kind: 'malformed', raw: String(data) }];
    if (data.type === 'ping') return [{ kind: 'keepAlive' }];
    const chunk = v.parse(Chunk, data);
    if (chunk.responseId !== undefined && !this.responseId) this.responseId = chunk.responseId;
    const events: WireEvent[] = [];
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.part(part, events);
    if (chunk.usageMetadata) events.push({ kind: 'usage', raw: chunk.usageMetadata, read: readGeminiUsage, merge: 'replace' });
    if (candidate?.finishReason !== undefined) this.finish(candidate.finishReason, events);
    const blocked = chunk.promptFeedback?.blockReason;
    if (blocked !== undefined && !candidate) this.finish(blocked, events, 'content_filter');
    return events.length > 0 ? events : [{ kind: 'keepAlive' }];
  }

  private part(part: ReadPart, events: WireEvent[]): void {
    const signature = part.thoughtSignature || undefined;
    if (part.functionCall) return this.functionCall(part.functionCall, signature);
    if (part.text) events.push({ kind: part.thought === true ? 'thinking' : 'text', text: part.text });
    // A signature alone on a later, empty part belongs to the call it followed, if no call was signed yet.
    const last = this.held[this.held.length - 1];
    if (signature && !part.text && last && !this.signed) {
      last.thoughtSignature = signature;
      this.signed = true;
    }
  }

  private functionCall(call: ReadFunctionCall, signature: string | undefined): void {
    const args = call.args === undefined ? '' : typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const geminiId = call.id || undefined;
    const name = call.name ?? '';
    const callId = geminiId ?? synthesizedCallId({ responseId: this.responseId, index: this.count++, name, args, signature });
    if (signature) this.signed = true;
    this.held.push({ callId, name: originalToolName(name), args, thoughtSignature: signature, geminiId });
  }

  private finish(wire: string, events: WireEvent[], reason = FINISH[wire] ?? wire.toLowerCase()): void {
    events.push(...this.calls(), { kind: 'finish', reason, wire });
  }

  /** Each held call, whole, its native slot (signature, Gemini's id) right before it. */
  private calls(): WireEvent[] {
    const events = this.held.flatMap((call): WireEvent[] => {
      const key = `g${this.passed++}`;
      const native: WireEvent[] = call.thoughtSignature || call.geminiId ? [{ kind: 'native', item: signedCallItem(call.callId, call), call: key }] : [];
      return [...native, { kind: 'toolEnd', key, id: call.callId, name: call.name, args: call.args }];
    });
    this.held.length = 0;
    return events;
  }

  end(): WireEvent[] {
    return this.calls();
  }

  /** Gemini sends calls whole: a break loses none of them. */
  abandon(): WireEvent[] {
    return this.calls();
  }
}

export const newGeminiReader = (seed?: string): AnswerReader => new AnswerReader('gemini', new GeminiWire(), seed);

/**
 * Gemini often sends function calls without ids; VS Code needs one per call, and the same history must give the
 * same bytes. The id is a hash of what identifies the call inside its answer — the response id, its position, name,
 * arguments and signature — so it is unique per call (the response id differs per answer) and never changes
 * afterwards (VS Code keeps it in the history; it is never recomputed).
 */
function synthesizedCallId(call: { responseId: string; index: number; name: string; args: string; signature?: string }): string {
  const text = JSON.stringify([call.responseId, call.index, call.name, call.args, call.signature ?? '']);
  return `call_gm_${hashId(text, 24)}`;
}

/**
 * Gemini `usageMetadata` → NormalizedUsage (the route's usage conversion; the finishing rule is core/usage/usage.ts).
 * `promptTokenCount` already includes `cachedContentTokenCount`; `toolUsePromptTokenCount` (tool-use prompt, e.g.
 * search results) also sits in the context; thoughts are output. Each chunk carries the whole usage so far, so in
 * a stream the newest replaces the older. Snake_case or camelCase (gateways in front of Gemini use either).
 */
export const GEMINI_USAGE_FIELDS = ['prompt_token_count', 'promptTokenCount', 'candidates_token_count', 'candidatesTokenCount',
  'cached_content_token_count', 'cachedContentTokenCount', 'total_token_count', 'totalTokenCount',
  'tool_use_prompt_token_count', 'toolUsePromptTokenCount', 'thoughts_token_count', 'thoughtsTokenCount'];

export function geminiUsageParts(raw: RawUsage): UsageParts {
  const either = (snake: string, camel: string): number => countField(raw, snake) || countField(raw, camel);
  return {
    shape: 'gemini',
    contextTokens: either('prompt_token_count', 'promptTokenCount') + either('tool_use_prompt_token_count', 'toolUsePromptTokenCount'),
    cachedTokens: either('cached_content_token_count', 'cachedContentTokenCount'),
    cacheWriteTokens: 0,
    // Thinking tokens are output too, but Gemini reports them apart from the candidates.
    completionTokens: either('candidates_token_count', 'candidatesTokenCount') + either('thoughts_token_count', 'thoughtsTokenCount'),
    reportedTotal: either('total_token_count', 'totalTokenCount'),
  };
}

/** Gemini usage, or undefined for a record with none of its fields. */
export function readGeminiUsage(raw: RawUsage): UsageReading | undefined {
  return hasUsageField(raw, ...GEMINI_USAGE_FIELDS) ? usageReading(geminiUsageParts(raw)) : undefined;
}

export function geminiUsage(raw: unknown): NormalizedUsage | undefined {
  return isRecord(raw) ? readGeminiUsage(raw)?.usage : undefined;
}
