/**
 * One inline suggestion through the extension's own request path (the ChatEngine: the same route choice,
 * transport, retries and usage accounting as chat), so it works on every route. Returns the cleaned text and
 * what the `[inline]` line reports.
 */
import type { ChatEngine } from '../request/chatEngine';
import type { NormalizedUsage } from '../types';
import { cleanSuggestion } from './inlineAnswer';
import type { InlinePrompt } from './inlinePrompt';
import { type ListedFields } from '../models/modelFacts';

export type InlineEngine = Pick<ChatEngine, 'run'>;

export interface InlineAnswer {
  text: string;
  usage?: NormalizedUsage;
  route?: string;
  /** Time from the call to the first streamed text (undefined when nothing came). */
  firstTextMs?: number;
}

export async function requestSuggestion(engine: InlineEngine, modelId: string, listed: ListedFields, prompt: InlinePrompt, maxTokens: number, signal: AbortSignal, now: () => number = Date.now): Promise<InlineAnswer> {
  let raw = '';
  let usage: NormalizedUsage | undefined;
  let firstTextMs: number | undefined;
  const started = now();
  const outcome = await engine.run(
    // temperature 0: the same prompt should give the same suggestion.
    { purpose: 'inline', modelId, messages: prompt.messages, tools: [], imageInput: false, modelOptions: { max_tokens: maxTokens, temperature: 0 } },
    listed,
    (event) => {
      if (event.kind === 'text') {
        firstTextMs ??= now() - started;
        raw += event.text;
      }
      if (event.kind === 'usage') usage = event.usage;
    },
    signal,
  );
  return { text: cleanSuggestion(raw, prompt.linePrefix, prompt.suffix), usage: usage ?? outcome.usage, route: outcome.prepared.route.id, firstTextMs };
}
