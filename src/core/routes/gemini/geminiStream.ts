/**
 * Gemini `streamGenerateContent?alt=sse` chunks → neutral events (core/answer/wireEvent.ts). Translation only.
 * Each chunk is a GenerateContentResponse: `text` parts → text, `thought: true` parts → thinking, each
 * `functionCall` part → a whole call (Gemini sends calls whole), `usageMetadata` → usage (cumulative: the newest
 * replaces), `finishReason` → finish (Gemini has no separate end event). Call ids: Gemini's own when it sends one,
 * else synthesized (geminiCallIds.ts); a call's signature (and Gemini's id) is a native item placed right before it.
 * A signature can arrive alone on a later, empty part, so calls are passed on at the finish reason (or the end).
 */
import { AnswerReader } from '../../answer/answerReader';
import type { WireEvent, WireReader } from '../../answer/wireEvent';
import { filledString, stringField, isRecord } from '../../util/jsonFields';
import { synthesizedCallId } from './geminiCallIds';
import { signedCallItem, type CallSignature } from './geminiReplay';
import { originalToolName } from './geminiToolNames';

type Payload = Record<string, unknown>;
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
    if (typeof data.responseId === 'string' && !this.responseId) this.responseId = data.responseId;
    const events: WireEvent[] = [];
    const candidate = Array.isArray(data.candidates) && isRecord(data.candidates[0]) ? data.candidates[0] : undefined;
    const parts = candidate && isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    for (const part of parts) if (isRecord(part)) this.part(part, events);
    if (isRecord(data.usageMetadata)) events.push({ kind: 'usage', raw: data.usageMetadata, shape: 'gemini', merge: 'replace' });
    if (typeof candidate?.finishReason === 'string') this.finish(candidate.finishReason, events);
    const blocked = isRecord(data.promptFeedback) ? data.promptFeedback.blockReason : undefined;
    if (typeof blocked === 'string' && !candidate) this.finish(blocked, events, 'content_filter');
    return events.length > 0 ? events : [{ kind: 'keepAlive' }];
  }

  private part(part: Payload, events: WireEvent[]): void {
    const signature = filledString(part.thoughtSignature);
    if (isRecord(part.functionCall)) return this.functionCall(part.functionCall, signature);
    const text = stringField(part.text);
    if (text) events.push({ kind: part.thought === true ? 'thinking' : 'text', text });
    // A signature alone on a later, empty part belongs to the call it followed, if no call was signed yet.
    const last = this.held[this.held.length - 1];
    if (signature && !text && last && !this.signed) {
      last.thoughtSignature = signature;
      this.signed = true;
    }
  }

  private functionCall(call: Payload, signature: string | undefined): void {
    const name = stringField(call.name);
    // Arguments that are not an object are refused by the assembler, never run as `{}`.
    const args = call.args === undefined ? '' : typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const geminiId = filledString(call.id);
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
