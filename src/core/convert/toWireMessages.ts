/**
 * The wire form: VS Code-shaped chat messages (neutral ChatMessage) → OpenAI chat messages, tools → `tools` and
 * `tool_choice`, and for a text-only model each image → a fixed note (withoutImages).
 * Pure and deterministic: the same input always gives byte-identical output, which the provider's
 * prefix cache depends on. Call ids are the ones VS Code gave; nothing here invents ids.
 */
import type { ChatMessage, ChatPart, ChatTool, ToolMode } from '../types';
import type { WireContentPart, WireImagePart, WireMessage, WireTool, WireToolCall } from '../wire/wireTypes';

/** Sent for a tool result with no text: several providers reject an empty tool message. */
export const EMPTY_TOOL_RESULT = '(no output)';

export function toWireMessages(messages: readonly ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (const message of messages) {
    out.push(...convertMessage(message));
  }
  return out;
}

function convertMessage(message: ChatMessage): WireMessage[] {
  switch (message.role) {
    case 'system':
      return convertSystem(message.parts);
    case 'assistant':
      return convertAssistant(message.parts);
    case 'user':
      return convertUser(message.parts);
  }
}

function convertSystem(parts: readonly ChatPart[]): WireMessage[] {
  const text = joinText(parts);
  return text ? [{ role: 'system', content: text }] : [];
}

function convertAssistant(parts: readonly ChatPart[]): WireMessage[] {
  const text = joinText(parts);
  const toolCalls: WireToolCall[] = [];
  let reasoning = '';
  for (const part of parts) {
    if (part.kind === 'toolCall') toolCalls.push(toWireToolCall(part));
    if (part.kind === 'thinking') reasoning += part.text;
  }
  if (!text && toolCalls.length === 0) return [];
  const message: WireMessage = { role: 'assistant', content: text || null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  // DeepSeek-style reasoners reject a tool-call turn whose reasoning was not passed back.
  if (reasoning) message.reasoning_content = reasoning;
  return [message];
}

/** VS Code carries tool results inside user messages; on the wire they are separate `tool` messages. */
function convertUser(parts: readonly ChatPart[]): WireMessage[] {
  const toolMessages: WireMessage[] = [];
  const content: WireContentPart[] = [];
  for (const part of parts) {
    if (part.kind === 'toolResult') {
      const images = (part.images ?? []).map((image) => toImagePart(image.mimeType, image.data));
      toolMessages.push({ role: 'tool', tool_call_id: part.callId, content: part.text || EMPTY_TOOL_RESULT, ...(images.length ? { images } : {}) });
    } else if (part.kind === 'text') {
      appendText(content, part.text);
    } else if (part.kind === 'image') {
      content.push(toImagePart(part.mimeType, part.data));
    }
  }
  const result: WireMessage[] = toolMessages;
  if (content.length === 0) return result;
  const onlyText = content.length === 1 && content[0].type === 'text';
  if (onlyText && !(content[0] as { text: string }).text) return result;
  result.push({ role: 'user', content: onlyText ? (content[0] as { text: string }).text : content });
  return result;
}

/** Adjacent text parts are one text block: VS Code may split one prompt into several parts. */
function appendText(content: WireContentPart[], text: string): void {
  const last = content[content.length - 1];
  if (last && last.type === 'text') last.text += text;
  else content.push({ type: 'text', text });
}

function joinText(parts: readonly ChatPart[]): string {
  let text = '';
  for (const part of parts) if (part.kind === 'text') text += part.text;
  return text;
}

function toWireToolCall(part: Extract<ChatPart, { kind: 'toolCall' }>): WireToolCall {
  return {
    id: part.callId,
    type: 'function',
    function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) },
  };
}

function toImagePart(mimeType: string, data: Uint8Array): WireImagePart {
  return { type: 'image_url', image_url: { url: toDataUrl(mimeType, data) } };
}

export function toDataUrl(mimeType: string, data: Uint8Array): string {
  return `data:${mimeType};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

/*
 * Tools are sorted by name: chat may list them in a different order from one request to the next, and the tools
 * block sits at the very front of the cached prefix, so any reordering would cost the whole cache.
 */
const EMPTY_SCHEMA = { type: 'object', properties: {} };

export function toWireTools(tools: readonly ChatTool[]): WireTool[] {
  return [...tools]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema ?? EMPTY_SCHEMA },
    }));
}

/** Only "required" is sent; "auto" is every endpoint's default and some reject an explicit value. */
export function toWireToolChoice(mode: ToolMode | undefined, toolCount: number): 'required' | undefined {
  return mode === 'required' && toolCount > 0 ? 'required' : undefined;
}

/*
 * A text-only model answers a request with an image by a 400. Each image is replaced by a short note,
 * always the same words, so the replacement is stable between turns and the cached prefix survives. An
 * image a tool returned becomes the same kind of note at the end of the tool's text.
 */
export const IMAGE_NOTE = '[image omitted: this model does not accept images]';

/** One line per image a tool returned, after the tool's own text. */
export function toolImageNote(mimeType: string): string {
  return `[image ${mimeType} returned by the tool omitted: this model does not accept images]`;
}

export function withoutImages(messages: readonly ChatMessage[]): { messages: ChatMessage[]; removed: number } {
  let removed = 0;
  const out = messages.map((message) => {
    if (!message.parts.some(carriesImage)) return message;
    return {
      ...message,
      parts: message.parts.map((part): ChatPart => {
        if (part.kind === 'image') {
          removed++;
          return { kind: 'text', text: IMAGE_NOTE };
        }
        if (part.kind !== 'toolResult' || !part.images?.length) return part;
        removed += part.images.length;
        const notes = part.images.map((image) => toolImageNote(image.mimeType));
        return { kind: 'toolResult', callId: part.callId, text: [part.text, ...notes].filter(Boolean).join('\n') };
      }),
    };
  });
  return { messages: out, removed };
}

function carriesImage(part: ChatPart): boolean {
  return part.kind === 'image' || (part.kind === 'toolResult' && (part.images?.length ?? 0) > 0);
}
