/**
 * Core stream events → VS Code response parts. Thinking is shown only when this VS Code has the
 * (not yet finalized) LanguageModelThinkingPart; the usage goes last as a `usage` data part, which chat
 * reads for its context indicator.
 */
import * as vscode from 'vscode';
import type { StreamEvent } from '../core/types';
import { usageDataPartPayload } from '../core/usage/usage';

type PartConstructor = new (...args: never[]) => vscode.LanguageModelResponsePart;
type DataPartClass = { json?(value: unknown, mime?: string): unknown } & (new (data: Uint8Array, mimeType: string) => unknown);

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
