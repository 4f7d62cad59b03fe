/**
 * VS Code chat messages and parts → the core's neutral ChatMessage. The only place that knows VS Code's
 * part classes; parts are recognised by class first and by shape second, because messages built by
 * another extension can carry parts from a different copy of the API objects.
 */
import * as vscode from 'vscode';
import type { ChatMessage, ChatPart, ChatRole, ChatTool, ToolImage, ToolMode } from '../core/types';

/** Role 3 (System) is sent by chat although it is not in the finalized enum. */
const SYSTEM_ROLE = 3;
const TEXT_MIME = /^(text\/|application\/(json|xml|x-yaml|yaml))/;

export function toChatMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): ChatMessage[] {
  return messages.map((message) => ({
    role: toRole(message.role),
    ...(message.name ? { name: message.name } : {}),
    parts: message.content.map(toChatPart),
  }));
}

function toRole(role: number): ChatRole {
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (role === SYSTEM_ROLE) return 'system';
  return 'user';
}

export function toChatPart(part: unknown): ChatPart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return toolResult(part.callId, part.content);
  const shaped = part as Record<string, unknown> | null;
  if (!shaped || typeof shaped !== 'object') return { kind: 'ignored', reason: typeof part };
  if (typeof shaped.callId === 'string' && Array.isArray(shaped.content)) return toolResult(shaped.callId, shaped.content);
  if (typeof shaped.callId === 'string' && typeof shaped.name === 'string') return { kind: 'toolCall', callId: shaped.callId, name: shaped.name, input: shaped.input ?? {} };
  if (typeof shaped.mimeType === 'string' && shaped.data instanceof Uint8Array) return dataPart(shaped.mimeType, shaped.data);
  if (isThinking(shaped)) return { kind: 'thinking', text: Array.isArray(shaped.value) ? shaped.value.join('') : String(shaped.value) };
  if (typeof shaped.value === 'string') return { kind: 'text', text: shaped.value };
  return { kind: 'ignored', reason: 'unknown part' };
}

/** Images become image parts; text-like data is text; cache_control, stateful_marker and the rest carry no content. */
function dataPart(mimeType: string, data: Uint8Array): ChatPart {
  if (mimeType.startsWith('image/')) return { kind: 'image', mimeType, data };
  if (TEXT_MIME.test(mimeType)) return { kind: 'text', text: Buffer.from(data).toString('utf8') };
  return { kind: 'ignored', reason: mimeType };
}

function isThinking(part: Record<string, unknown>): boolean {
  const ThinkingPart = (vscode as unknown as Record<string, unknown>).LanguageModelThinkingPart as (new (...args: never[]) => unknown) | undefined;
  return (typeof ThinkingPart === 'function' && part instanceof ThinkingPart) || (part.constructor?.name === 'LanguageModelThinkingPart');
}

/** A tool's result: its text parts joined, and the images it returned (an MCP screenshot) kept as images. */
function toolResult(callId: string, content: readonly unknown[]): ChatPart {
  const images = toolResultImages(content);
  return { kind: 'toolResult', callId, text: toolResultText(content), ...(images.length ? { images } : {}) };
}

export function toolResultText(content: readonly unknown[]): string {
  let text = '';
  for (const item of content) {
    const part = toChatPart(item);
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'ignored' && isPromptTsx(item)) text += JSON.stringify((item as { value: unknown }).value);
  }
  return text;
}

function toolResultImages(content: readonly unknown[]): ToolImage[] {
  const images: ToolImage[] = [];
  for (const item of content) {
    const part = toChatPart(item);
    if (part.kind === 'image') images.push({ mimeType: part.mimeType, data: part.data });
  }
  return images;
}

function isPromptTsx(item: unknown): boolean {
  return item instanceof vscode.LanguageModelPromptTsxPart;
}

export function toChatTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): ChatTool[] {
  return (tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}) }));
}

export function toToolMode(mode: vscode.LanguageModelChatToolMode | undefined): ToolMode {
  return mode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto';
}
