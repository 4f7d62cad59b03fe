/**
 * The Messages route's body and per-attempt rules. The trimmed neutral history → an Anthropic Messages body
 * (`/messages`, OpenCode's "anthropic" format), typed with `@anthropic-ai/sdk`'s request types (types only: the SDK
 * is a devDependency): `system` top level, tool calls as `tool_use`, results as `tool_result` inside user turns,
 * images as base64 sources, `max_tokens` always set, signed thinking blocks passed back unmodified and in place, and
 * cache breakpoints (placeBreakpoints). `messages` is the last field, so a longer history only appends (apart from
 * the breakpoint markers, whose positions docs/routes.md defines).
 */
import type { Base64ImageSource, CacheControlEphemeral, ContentBlockParam, ImageBlockParam, MessageCreateParamsStreaming, RedactedThinkingBlockParam, TextBlockParam, ThinkingBlockParam, Tool, ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { WireContentPart, WireMessage, WireTool } from '../../wire/wireTypes';
import { anthropicToolId } from '../callIds';
import { isCompleteNative, type AssistantLayout } from '../../answer/nativeReplay';
import type { AttemptRules, BodyInput } from '../route';
import { withinRoom, breakpointMarker, breakpointPrefixMs, withoutTtl } from '../requestParts';
import { isRecord } from '../../util/jsonFields';

/** The SDK no longer lists `temperature` / `top_p`; OpenCode's gateway and the models behind it still take them. */
export type MessagesBody = MessageCreateParamsStreaming & { temperature?: number; top_p?: number };
/** A turn as this route builds it: always a block list (the SDK also allows a bare string). */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}
type AssistantWire = Extract<WireMessage, { role: 'assistant' }>;
/** The blocks a breakpoint can go on (thinking blocks cannot carry one). */
type Cacheable = Exclude<ContentBlockParam, ThinkingBlockParam | RedactedThinkingBlockParam>;

/** Used when the model's max output is unknown: every model on OpenCode's /messages allows at least this. */
export const FALLBACK_MAX_TOKENS = 16_384;

/** Route.buildBody's untyped record: a spread of the typed body (an interface has no index signature); `messages` last. */
export function buildMessagesBody(input: BodyInput): Record<string, unknown> {
  const body: Omit<MessagesBody, 'messages'> = { model: input.modelId, max_tokens: maxTokens(input), stream: true };
  if (typeof input.options?.temperature === 'number') body.temperature = input.options.temperature;
  if (typeof input.options?.top_p === 'number') body.top_p = input.options.top_p;
  if (input.options?.stop?.length) body.stop_sequences = input.options.stop;
  const tools = input.tools.map(toAnthropicTool);
  if (tools.length > 0) body.tools = tools;
  if (input.toolChoice === 'required' && tools.length > 0) body.tool_choice = { type: 'any' };
  const system = input.messages.flatMap((m): TextBlockParam[] => (m.role === 'system' ? [{ type: 'text', text: m.content }] : []));
  if (system.length > 0) body.system = system;
  const messages = toAnthropicMessages(input);
  // requestParts.ts builds the marker for every route's settings; it is always an ephemeral cache_control.
  placeBreakpoints(tools, system, messages, breakpointMarker(input) as unknown as CacheControlEphemeral);
  const sent: MessagesBody = { ...body, messages };
  return { ...sent };
}

/**
 * The requested output, never above the model's max (Anthropic rejects max_tokens beyond it) nor above what the
 * window leaves after the input ("input length and `max_tokens` exceed context limit").
 */
function maxTokens(input: Pick<BodyInput, 'options' | 'maxOutputTokens' | 'outputRoom'>): number {
  const modelMax = input.maxOutputTokens && input.maxOutputTokens > 0 ? Math.floor(input.maxOutputTokens) : FALLBACK_MAX_TOKENS;
  const requested = input.options?.max_tokens;
  return withinRoom(typeof requested === 'number' && requested > 0 ? Math.min(Math.floor(requested), modelMax) : modelMax, input.outputRoom);
}

function toAnthropicTool(tool: WireTool): Tool {
  // The tool's JSON Schema as VS Code gave it (an object schema: VS Code's tools always take an object).
  return { name: tool.function.name, description: tool.function.description, input_schema: tool.function.parameters as Tool.InputSchema };
}

/** Consecutive user-side messages (tool results, then the text that came with them) are one user turn. */
function toAnthropicMessages(input: Pick<BodyInput, 'messages' | 'replay'>): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], content: ContentBlockParam[]): void => {
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

function textBlock(text: string): TextBlockParam[] {
  // Anthropic rejects empty text blocks.
  return text ? [{ type: 'text', text }] : [];
}

function userBlocks(content: string | WireContentPart[]): ContentBlockParam[] {
  if (typeof content === 'string') return textBlock(content);
  return content.flatMap((part): ContentBlockParam[] => (part.type === 'text' ? textBlock(part.text) : [imageBlock(part.image_url.url)]));
}

/** A result with images is a block list (text first, then each image); a text-only result stays a string. */
function toolResultContent(message: Extract<WireMessage, { role: 'tool' }>): ToolResultBlockParam['content'] {
  if (!message.images?.length) return message.content;
  return [...textBlock(message.content), ...message.images.map((image) => imageBlock(image.image_url.url))];
}

function imageBlock(url: string): ImageBlockParam {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) return { type: 'image', source: { type: 'url', url } };
  // Sent as the data URL says; the API names what it refuses (core/images keeps images to the types it takes).
  return { type: 'image', source: { type: 'base64', media_type: match[1] as Base64ImageSource['media_type'], data: match[2] } };
}

/** In the answer's original order when a layout was remembered (thinking before the call it led to). */
function assistantBlocks(message: AssistantWire, layout: AssistantLayout | undefined): ContentBlockParam[] {
  const calls = new Map((message.tool_calls ?? []).map((call) => [call.id, call]));
  const blocks: ContentBlockParam[] = [];
  let textSent = false;
  for (const slot of layout?.slots ?? []) {
    // Only complete blocks: a thinking block without its signature is refused by the API. Passed back as the
    // stream gave it (messagesStream.ts keeps thinking / redacted_thinking blocks whole).
    if (slot.kind === 'native' && isCompleteNative(slot.item)) blocks.push(slot.item as unknown as ThinkingBlockParam);
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

function toolUse(call: NonNullable<AssistantWire['tool_calls']>[number]): ToolUseBlockParam {
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

/**
 * Where the body carries `cache_control` (at most 4 — Anthropic rejects a fifth):
 *   1. the last tool definition      (tools change rarely: their prefix is read on every request)
 *   2. the last system block         (same for the system prompt)
 *   3. the last block of the newest message: this request writes everything it sends
 *   4. the last block of the last user turn before the newest assistant turn: that is where the previous
 *      request put breakpoint 3, so this request reads exactly what the previous one wrote, however many
 *      blocks (parallel tool results) were appended since (Anthropic only looks ~20 blocks back by itself).
 * Both message breakpoints are functions of the history alone, so inside the already-cached part a marker only
 * ever disappears (the old breakpoint 4), never appears on a new block. Thinking blocks cannot carry one.
 * Every marker is the same `cache_control` (the lifetime the settings ask for, routes/requestParts.ts): Anthropic
 * wants longer lifetimes before shorter ones, and one marker for all keeps that true.
 */
function placeBreakpoints(tools: Tool[], system: TextBlockParam[], messages: AnthropicMessage[], marker: CacheControlEphemeral): void {
  const mark = (block: Tool | Cacheable | undefined): void => {
    if (block) block.cache_control = { ...marker };
  };
  mark(tools[tools.length - 1]);
  mark(system[system.length - 1]);
  const newest = messages.length - 1;
  if (newest < 0) return;
  mark(lastCacheable(messages[newest]));
  const previous = previousRequestEnd(messages);
  if (previous !== undefined && previous !== newest) mark(lastCacheable(messages[previous]));
}

/** Index of the last user turn before the newest assistant turn (undefined when there is none). */
export function previousRequestEnd(messages: readonly AnthropicMessage[]): number | undefined {
  let i = messages.length - 1;
  while (i >= 0 && messages[i].role !== 'assistant') i--;
  for (i--; i >= 0; i--) if (messages[i].role === 'user') return i;
  return undefined;
}

function lastCacheable(message: AnthropicMessage): Cacheable | undefined {
  for (let i = message.content.length - 1; i >= 0; i--) {
    const block = message.content[i];
    if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
      // A fresh copy: blocks may be shared (remembered layouts), and the marker is this request's alone.
      const copy = { ...block };
      message.content[i] = copy;
      return copy;
    }
  }
  return undefined;
}

/**
 * Per attempt (core/routes/route.ts AttemptRules): `max_tokens` is required by the format, so it is never dropped;
 * a thinking budget forbids `temperature`; a refused `ttl` is dropped from the cache breakpoints, where it lives;
 * warming asks for one token, except with a thinking budget.
 */
export const messagesAttempt: AttemptRules = {
  required: ['model', 'messages', 'max_tokens'],
  quirks: (effort) => (isRecord(effort?.thinking) && effort.thinking.type === 'enabled' ? ['temperature'] : []),
  dropNested: (body, omitted) => (omitted.has('ttl') ? withoutTtl(body) : body),
  warming: {
    // A thinking budget needs max_tokens above it, and changing the thinking settings would invalidate the cache.
    body: (body) => (isRecord(body.thinking) && body.thinking.type === 'enabled' ? undefined : { ...body, max_tokens: 1 }),
    prefixLifetimeMs: breakpointPrefixMs,
  },
};
