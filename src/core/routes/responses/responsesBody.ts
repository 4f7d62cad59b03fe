/**
 * The trimmed neutral history → a Responses API body (OpenAI `/responses`, OpenCode's "openai" format).
 * Stateless (`store: false`): every turn sends the whole input, so each item must encode to the same bytes
 * every time — items are built only from the history and the native-replay memory, and `input` is the last
 * field so a longer history only appends bytes. See docs/routes.md. Below the body: the route's per-attempt rules.
 */
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { WireMessage, WireTool } from '../../wire/wireTypes';
import { responsesItemId } from '../callIds';
import { isCompleteNative, type AssistantLayout } from '../../answer/nativeReplay';
import type { AttemptRules, BodyInput } from '../route';
import { inMemoryPrefixMs, retentionField, samplingFields } from '../requestParts';

type Item = Record<string, unknown>;
type AssistantMessage = Extract<WireMessage, { role: 'assistant' }>;

/**
 * The body as the SDK types it (`import type` only), its input items and tools built here: items pass back native
 * ones verbatim (reasoning with its encrypted content), and a tool's JSON schema is VS Code's as it came.
 */
type ResponsesBody = Omit<ResponseCreateParamsStreaming, 'input' | 'tools'> & { input: Item[]; tools?: Item[] };

export function buildResponsesBody(input: BodyInput): Record<string, unknown> {
  const retention = retentionField(input);
  const body: ResponsesBody = {
    model: input.modelId,
    stream: true,
    store: false,
    prompt_cache_key: input.sessionId,
    ...(retention ? { prompt_cache_retention: retention } : {}),
    // Always, known model or not: a model that reasons anyway returns items that can only be passed back with their
    // encrypted content under store:false. The summary is asked of models known to reason only.
    include: ['reasoning.encrypted_content'],
    ...(input.reasons ? { reasoning: { summary: 'auto' } } : {}),
    ...(input.tools.length > 0 ? { tools: input.tools.map(toResponsesTool) } : {}),
    ...(input.toolChoice === 'required' && input.tools.length > 0 ? { tool_choice: 'required' } : {}),
    // Responses has no `stop`; max_output_tokens counts reasoning too.
    ...samplingFields(input.options, { maxTokens: 'max_output_tokens', stop: false }, input.outputRoom),
    input: toResponsesInput(input),
  };
  return body;
}

export function toResponsesTool(tool: WireTool): Item {
  const { name, description, parameters } = tool.function;
  return { type: 'function', name, description, parameters, strict: false };
}

export function toResponsesInput(input: Pick<BodyInput, 'messages' | 'replay'>): Item[] {
  const items: Item[] = [];
  for (const message of input.messages) {
    if (message.role === 'system') items.push({ type: 'message', role: 'system', content: [inputText(message.content)] });
    else if (message.role === 'user') items.push({ type: 'message', role: 'user', content: userContent(message.content) });
    else if (message.role === 'tool') items.push({ type: 'function_call_output', call_id: message.tool_call_id, output: toolOutput(message) });
    else items.push(...assistantItems(message, input.replay?.layoutFor(message.tool_calls?.[0]?.id ?? '', 'responses')));
  }
  return items;
}

/** A result with images is a list (text first, then each image); a text-only result stays a string. */
function toolOutput(message: Extract<WireMessage, { role: 'tool' }>): string | Item[] {
  if (!message.images?.length) return message.content;
  return [inputText(message.content), ...message.images.map((image) => inputImage(image.image_url.url))];
}

function inputImage(url: string): Item {
  return { type: 'input_image', image_url: url, detail: 'auto' };
}

function inputText(text: string): Item {
  return { type: 'input_text', text };
}

function userContent(content: Extract<WireMessage, { role: 'user' }>['content']): Item[] {
  if (typeof content === 'string') return [inputText(content)];
  // image_url must be a plain string here (the nested {url} form is rejected).
  return content.map((part) => (part.type === 'text' ? inputText(part.text) : inputImage(part.image_url.url)));
}

/** In the answer's original order when a layout was remembered (reasoning before the call it led to). */
function assistantItems(message: AssistantMessage, layout: AssistantLayout | undefined): Item[] {
  const calls = new Map((message.tool_calls ?? []).map((call) => [call.id, call]));
  const items: Item[] = [];
  let textSent = !message.content;
  for (const slot of layout?.slots ?? []) {
    // Never an item without its encrypted content (the memory already drops them; old or foreign layouts too).
    if (slot.kind === 'native') {
      if (isCompleteNative(slot.item)) items.push(slot.item);
    }
    else if (slot.kind === 'text' && !textSent) {
      items.push(assistantText(message.content ?? ''));
      textSent = true;
    } else if (slot.kind === 'call') {
      const call = calls.get(slot.callId);
      if (call) items.push(functionCall(call));
      calls.delete(slot.callId);
    }
  }
  if (!textSent) items.push(assistantText(message.content ?? ''));
  for (const call of calls.values()) items.push(functionCall(call));
  return items;
}

function assistantText(text: string): Item {
  return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
}

function functionCall(call: NonNullable<AssistantMessage['tool_calls']>[number]): Item {
  return { type: 'function_call', id: responsesItemId(call.id), call_id: call.id, name: call.function.name, arguments: call.function.arguments };
}

/**
 * The Responses route's per-attempt rules (core/routes/route.ts AttemptRules): the model and the input are required;
 * warming asks for the smallest answer Responses takes (it refuses max_output_tokens below 16).
 */
export const RESPONSES_MIN_OUTPUT = 16;

export const responsesAttempt: AttemptRules = {
  required: ['model', 'input'],
  warming: {
    body: (body, refused) => (refused.has('max_output_tokens') ? { ...body } : { ...body, max_output_tokens: RESPONSES_MIN_OUTPUT }),
    prefixLifetimeMs: inMemoryPrefixMs,
  },
};
