/**
 * VS Code's chat types ↔ the core's neutral ones, both ways; the only place that knows VS Code's part classes.
 * In: messages and their parts (ChatMessage), the tools, the tool mode and the thinking effort a request picked.
 * Out: the core's stream events as response parts.
 *
 * Parts are recognised by class first and by shape second, because messages built by another extension can carry
 * parts from a different copy of the API objects. Thinking is shown only when this VS Code has the (not yet
 * finalized) LanguageModelThinkingPart; the usage goes last as a `usage` data part, which chat reads for its context
 * indicator.
 */
import * as vscode from 'vscode';
import { EFFORT_PROPERTY } from '../core/routes/effortPicker';
import type { ChatMessage, ChatPart, ChatRole, ChatTool, StreamEvent, ToolImage, ToolMode } from '../core/types';
import { usageDataPartPayload } from '../core/usage/usage';
import { isRecord } from '../core/util/jsonFields';

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

type WithConfiguration = vscode.ProvideLanguageModelChatResponseOptions & { modelConfiguration?: unknown; configuration?: unknown };

/**
 * The thinking effort chosen for a request. An extension calling `vscode.lm` names it per request in
 * `modelOptions.reasoningEffort` (most specific, so first); the picker's value arrives in
 * `options.modelConfiguration` (the `chatProvider` API that reads a model's `configurationSchema`), or
 * `configuration` in some builds. The value is validated in core (sendBody.ts effortChoice): anything unknown,
 * and the picker's untouched "default", fall back to the setting.
 */
export function pickedEffort(options: vscode.ProvideLanguageModelChatResponseOptions): unknown {
  const withConfig = options as WithConfiguration;
  for (const source of [options.modelOptions, withConfig.modelConfiguration, withConfig.configuration]) {
    if (isRecord(source) && source[EFFORT_PROPERTY] !== undefined) return source[EFFORT_PROPERTY];
  }
  return undefined;
}

type PartConstructor = new (...args: never[]) => vscode.LanguageModelResponsePart;
type DataPartClass = { json?(value: unknown, mime?: string): unknown } & (new (data: Uint8Array, mimeType: string) => unknown);

/** A core stream event → the response part VS Code shows (the finish shows none). */
export function reportEvent(event: StreamEvent, progress: vscode.Progress<vscode.LanguageModelResponsePart>): void {
  switch (event.kind) {
    case 'text':
      progress.report(new vscode.LanguageModelTextPart(event.text));
      return;
    case 'toolCall':
      progress.report(new vscode.LanguageModelToolCallPart(event.callId, event.name, event.input));
      return;
    case 'thinking': {
      const ThinkingPart = runtimeClass('LanguageModelThinkingPart') as (new (value: string) => vscode.LanguageModelResponsePart) | undefined;
      if (ThinkingPart) progress.report(new ThinkingPart(event.text));
      return;
    }
    case 'usage': {
      const DataPart = runtimeClass('LanguageModelDataPart') as DataPartClass | undefined;
      if (!DataPart) return;
      const bytes = Buffer.from(JSON.stringify(usageDataPartPayload(event.usage)), 'utf8');
      progress.report(new DataPart(new Uint8Array(bytes), 'usage') as vscode.LanguageModelResponsePart);
      return;
    }
    case 'finish':
      return;
  }
}

function runtimeClass(name: string): PartConstructor | undefined {
  const value = (vscode as unknown as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as PartConstructor) : undefined;
}
