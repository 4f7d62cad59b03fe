/**
 * Gemini `streamGenerateContent?alt=sse` chunks → StreamEvents. Each chunk is a GenerateContentResponse:
 * `text` parts → text, `thought: true` parts → thinking, each `functionCall` part → a toolCall at once (Gemini
 * sends calls whole), `usageMetadata` → usage (cumulative: the newest replaces), `finishReason` → the summary
 * (Gemini has no separate terminal event, so a finish reason completes the answer). `{error}` payloads are
 * reported; OpenCode's cost frame (`{"type":"ping","cost":…}`) is ignored. Call ids: Gemini's own when it sends
 * one, else synthesized (geminiCallIds.ts). Signatures are recorded per call for the next turns.
 */
import type { StreamEvent } from '../../types';
import { isRecord } from '../../util/isRecord';
import { LayoutRecorder, type AssistantLayout } from '../nativeReplay';
import { NativeReader } from '../nativeReader';
import type { ReadResult } from '../route';
import { synthesizedCallId } from './geminiCallIds';
import { signedCallItem, type CallSignature } from './geminiReplay';
import { originalToolName } from './geminiToolNames';
import { geminiUsage } from './geminiUsage';

type Payload = Record<string, unknown>;
interface ReadCall extends CallSignature {
  callId: string;
}

const FINISH: Record<string, string> = {
  STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter', RECITATION: 'content_filter', BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter', SPII: 'content_filter', IMAGE_SAFETY: 'content_filter', LANGUAGE: 'content_filter',
};

export class GeminiReader extends NativeReader {
  private readonly calls: ReadCall[] = [];
  private sawText = false;
  private responseId = '';

  protected pushObject(payload: Payload): ReadResult {
    const events: StreamEvent[] = [];
    if (isRecord(payload.error)) return { events, error: payload.error };
    if (payload.type === 'ping') return { events };
    if (typeof payload.responseId === 'string' && !this.responseId) this.responseId = payload.responseId;
    const candidate = Array.isArray(payload.candidates) && isRecord(payload.candidates[0]) ? payload.candidates[0] : undefined;
    const parts = candidate && isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    for (const part of parts) if (isRecord(part)) this.part(part, events);
    if ('usageMetadata' in payload) this.state.usage(geminiUsage(payload.usageMetadata), events);
    if (typeof candidate?.finishReason === 'string') this.finishWith(candidate.finishReason);
    const blocked = isRecord(payload.promptFeedback) ? payload.promptFeedback.blockReason : undefined;
    if (typeof blocked === 'string' && !candidate) this.finishWith('SAFETY');
    return { events };
  }

  private part(part: Payload, events: StreamEvent[]): void {
    const signature = typeof part.thoughtSignature === 'string' && part.thoughtSignature ? part.thoughtSignature : undefined;
    if (isRecord(part.functionCall)) return this.functionCall(part.functionCall, signature, events);
    const text = typeof part.text === 'string' ? part.text : '';
    if (part.thought === true) this.state.thinking(text, events);
    else if (text) {
      this.sawText = true;
      this.state.text(text, events);
    }
    // A signature can arrive alone on a later, empty part: it belongs to the call it followed, if unsigned.
    const last = this.calls[this.calls.length - 1];
    if (signature && !text && last && !this.calls.some((c) => c.thoughtSignature)) last.thoughtSignature = signature;
  }

  private functionCall(call: Payload, signature: string | undefined, events: StreamEvent[]): void {
    const name = typeof call.name === 'string' ? call.name : '';
    // Arguments that are not an object are refused (ToolCallArgumentsError), never run as `{}`.
    const raw = call.args === undefined ? '' : typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const geminiId = typeof call.id === 'string' && call.id ? call.id : undefined;
    const callId = geminiId ?? synthesizedCallId({ responseId: this.responseId, index: this.calls.length, name, args: raw, signature });
    this.calls.push({ callId, thoughtSignature: signature, geminiId });
    this.state.toolCall(callId, originalToolName(name), raw, events);
  }

  private finishWith(reason: string): void {
    this.state.summary.complete = true;
    const mapped = FINISH[reason] ?? reason.toLowerCase();
    this.state.summary.finishReason = mapped === 'stop' && this.calls.length > 0 ? 'tool_calls' : mapped;
  }

  finish(): StreamEvent[] {
    return this.state.finish([]);
  }

  /** The stream broke after content was shown: Gemini sends whole calls, so nothing is held back. */
  abandon(): StreamEvent[] {
    return [];
  }

  /** Text first, then each call, a signed call's native slot right before it (Gemini puts calls after text). */
  layout(): AssistantLayout | undefined {
    const recorder = new LayoutRecorder('gemini');
    if (this.sawText) recorder.text();
    for (const call of this.calls) {
      if (call.thoughtSignature || call.geminiId) recorder.native(signedCallItem(call.callId, call));
      recorder.call(call.callId);
    }
    return recorder.layout();
  }
}
