/**
 * The trimmed neutral history → an Anthropic Messages body (`/messages`, OpenCode's "anthropic" format):
 * `system` top level, tool calls as `tool_use`, results as `tool_result` inside user turns, images as base64
 * sources, `max_tokens` always set, signed thinking blocks passed back unmodified and in place, and cache
 * breakpoints placed by cacheBreakpoints.ts. `messages` is the last field, so a longer history only appends
 * (apart from the breakpoint markers, whose positions docs/routes.md defines).
 */
import type { WireContentPart, WireMessage, WireTool } from '../../wire/wireTypes';
import { anthropicToolId } from '../callIds';
import { isCompleteNative, type AssistantLayout } from '../../answer/nativeReplay';
import type { BodyInput } from '../route';
import { placeBreakpoints } from './cacheBreakpoints';
import { samplingFields, withinRoom, breakpointMarker } from '../requestParts';

export type Block = Record<string, unknown>;
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}
type AssistantWire = Extract<WireMessage, { role: 'assistant' }>;

/** Used when the model's max output is unknown: every model on OpenCode's /messages allows at least this. */
export const FALLBACK_MAX_TOKENS = 16_384;

export function buildMessagesBody(input: BodyInput): Record<string, unknown> {
  const body: Record<string, unknown> = { model: input.modelId, max_tokens: maxTokens(input), stream: true };
  const sampling = samplingFields(input.options, { maxTokens: 'max_tokens', stop: false });
  delete sampling.max_tokens;
  Object.assign(body, sampling);
  if (input.options?.stop?.length) body.stop_sequences = input.options.stop;
  const tools = input.tools.map(toAnthropicTool);
  if (tools.length > 0) body.tools = tools;
  if (input.toolChoice === 'required' && tools.length > 0) body.tool_choice = { type: 'any' };
  const system = input.messages.filter((m) => m.role === 'system').map((m) => ({ type: 'text', text: m.content as string }));
  if (system.length > 0) body.system = system;
  const messages = toAnthropicMessages(input);
  placeBreakpoints(tools, system, messages, breakpointMarker(input));
  body.messages = messages;
  return body;
}

/**
 * The requested output, never above the model's max (Anthropic rejects max_tokens beyond it) nor above what the
 * window leaves after the input ("input length and `max_tokens` exceed context limit").
 */
export function maxTokens(input: Pick<BodyInput, 'options' | 'maxOutputTokens' | 'outputRoom'>): number {
  const modelMax = input.maxOutputTokens && input.maxOutputTokens > 0 ? Math.floor(input.maxOutputTokens) : FALLBACK_MAX_TOKENS;
  const requested = input.options?.max_tokens;
  return withinRoom(typeof requested === 'number' && requested > 0 ? Math.min(Math.floor(requested), modelMax) : modelMax, input.outputRoom);
}

export function toAnthropicTool(tool: WireTool): Block {
  return { name: tool.function.name, description: tool.function.description, input_schema: tool.function.parameters };
}

/** Consecutive user-side messages (tool results, then the text that came with them) are one user turn. */
export function toAnthropicMessages(input: Pick<BodyInput, 'messages' | 'replay'>): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], content: Block[]): void => {
    if (content.length === 0) return;
    const last = out[out.length - 1];
    if (role === 'user' && last?.role === 'user') last.content.push(...content);
    else out.push({ role, content });
  };
  for (const message of input.messages) {
    if (message.role === 'user') push('user', userBlocks(message.content));
    else if (message.role === 'tool') push('user', [{ type: 'tool_result', tool_use_id: anthropicToolId(message.tool_call_id), content: toolResultContent(message) }]);
    else if (message.role === 'assistant') push('assistant', assistantBlocks(message, input.replay?.layoutFor(message.tool_calls?.[0]?.id ?? '', 'messages')));
  }
  return out;
}

function textBlock(text: string): Block[] {
  // Anthropic rejects empty text blocks.
  return text ? [{ type: 'text', text }] : [];
}

function userBlocks(content: string | WireContentPart[]): Block[] {
  if (typeof content === 'string') return textBlock(content);
  return content.flatMap((part) => (part.type === 'text' ? textBlock(part.text) : [imageBlock(part.image_url.url)]));
}

/** A result with images is a block list (text first, then each image); a text-only result stays a string. */
function toolResultContent(message: Extract<WireMessage, { role: 'tool' }>): string | Block[] {
  if (!message.images?.length) return message.content;
  return [...textBlock(message.content), ...message.images.map((image) => imageBlock(image.image_url.url))];
}

export function imageBlock(url: string): Block {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) return { type: 'image', source: { type: 'url', url } };
  return { type: 'image', source: { type: 'base64', media_type: match[1], data: match[2] } };
}

/** In the answer's original order when a layout was remembered (thinking before the call it led to). */
function assistantBlocks(message: AssistantWire, layout: AssistantLayout | undefined): Block[] {
  const calls = new Map((message.tool_calls ?? []).map((call) => [call.id, call]));
  const blocks: Block[] = [];
  let textSent = false;
  for (const slot of layout?.slots ?? []) {
    // Only complete blocks: a thinking block without its signature is refused by the API.
    if (slot.kind === 'native' && isCompleteNative(slot.item)) blocks.push(slot.item);
    else if (slot.kind === 'text' && !textSent) {
      blocks.push(...textBlock(message.content ?? ''));
      textSent = true;
    } else if (slot.kind === 'call') {
      const call = calls.get(slot.callId);
      if (call) blocks.push(toolUse(call));
      calls.delete(slot.callId);
    }
  }
  if (!textSent) blocks.push(...textBlock(message.content ?? ''));
  for (const call of calls.values()) blocks.push(toolUse(call));
  return blocks;
}

function toolUse(call: NonNullable<AssistantWire['tool_calls']>[number]): Block {
  return { type: 'tool_use', id: anthropicToolId(call.id), name: call.function.name, input: parseInput(call.function.arguments) };
}

function parseInput(args: string): unknown {
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
