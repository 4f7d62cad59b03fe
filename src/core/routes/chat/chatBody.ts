/**
 * Chat Completions (`/chat/completions`, OpenCode's "oa-compat" format): the route every model took before routes
 * existed. What is sent: the body from the converted history (core/convert) as it always was, with a tool's images
 * moved to a user message (the format's tool messages carry text only), and the route's per-attempt rules.
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { WireContentPart, WireMessage, WireTool } from '../../wire/wireTypes';
import type { AttemptRules, BodyInput } from '../route';
import { inMemoryPrefixMs, retentionField, samplingFields } from '../requestParts';
import { toWireToolChoice } from '../../convert/toWireMessages';

/**
 * The body as the SDK types it (`import type` only: nothing of the SDK runs here), its messages and tools the
 * converted ones (WireMessage: `reasoning_content` passed back, which the SDK's assistant message does not name;
 * WireTool: a tool's JSON schema as VS Code gave it).
 */
type ChatBody = Omit<ChatCompletionCreateParamsStreaming, 'messages' | 'tools'> & { messages: WireMessage[]; tools?: WireTool[] };

/** `messages` last, as on every route: a longer history only appends bytes (the fields in this order). */
export function buildChatBody(input: BodyInput): Record<string, unknown> {
  const toolChoice = input.toolChoice && toWireToolChoice(input.toolChoice, input.tools.length);
  const retention = retentionField(input);
  const body: ChatBody = {
    model: input.modelId,
    ...(input.tools.length > 0 ? { tools: [...input.tools] } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...samplingFields(input.options, { maxTokens: 'max_tokens', stop: true }, input.outputRoom),
    stream: true,
    ...(retention ? { prompt_cache_retention: retention } : {}),
    stream_options: { include_usage: true },
    messages: withToolImagesAsUser(input.messages),
  };
  return body;
}

/**
 * The chat route's per-attempt rules (core/routes/route.ts AttemptRules). `reasoning_content` lives on assistant
 * messages: it goes back whenever the answer carried it, whatever the model (models with interleaved thinking
 * refuse a tool-call turn without it, and no data can say which ids do), so the only way it leaves is a refusal,
 * which strips it there; usage is asked for through `stream_options`, so a model that refuses it sends none.
 */
export const chatAttempt: AttemptRules = {
  required: ['model', 'messages'],
  dropNested(body, omitted) {
    if (!omitted.has('reasoning_content') || !Array.isArray(body.messages)) return body;
    const messages = (body.messages as WireMessage[]).map((m) => {
      if (m.role !== 'assistant' || m.reasoning_content === undefined) return m;
      const { reasoning_content: _dropped, ...rest } = m;
      return rest;
    });
    return { ...body, messages };
  },
  usageAsked: (refused) => !refused.has('stream_options'),
  warming: {
    body: (body, refused) => (refused.has('max_tokens') ? { ...body } : { ...body, max_tokens: 1 }),
    prefixLifetimeMs: inMemoryPrefixMs,
  },
};

/*
 * Chat Completions tool messages carry text only (OpenAI's `tool` content is a string or text parts), so the
 * images a tool returned go in one user message right after the run of tool messages they came with (a user
 * message between two tool messages would break the call/result pairing). Its words are fixed and name the
 * call, so the message is the same bytes on every turn.
 */
export function toolImagesNote(callId: string): string {
  return `The image(s) returned by tool call ${callId}:`;
}

export function withToolImagesAsUser(messages: readonly WireMessage[]): WireMessage[] {
  if (!messages.some((m) => m.role === 'tool' && m.images?.length)) return messages as WireMessage[];
  const out: WireMessage[] = [];
  let pending: WireContentPart[] = [];
  const flush = (): void => {
    if (pending.length > 0) out.push({ role: 'user', content: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    if (message.role === 'tool' && message.images?.length) {
      const { images, ...text } = message;
      out.push(text);
      pending.push({ type: 'text', text: toolImagesNote(message.tool_call_id) }, ...images);
    } else out.push(message);
  }
  flush();
  return out;
}
