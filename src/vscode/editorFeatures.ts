/** The editor features beyond chat, registered together: inline suggestions (provider and toggle) and commit messages. */
import * as vscode from 'vscode';
import type { ChatEngine } from '../core/request/chatEngine';
import type { ModelLimits } from '../core/types';
import { registerCommitMessage } from './commitMessage';
import { OpenCodeInlineProvider } from './inlineProvider';
import { InlineStatus } from './inlineStatus';
import type { ModelCatalog } from './modelCatalog';
import type { SettingsReader } from './settingsReader';

export interface EditorFeatureParts {
  engine: ChatEngine;
  settings: SettingsReader;
  catalog: ModelCatalog;
  log: vscode.LogOutputChannel;
}

export function registerEditorFeatures(parts: EditorFeatureParts): vscode.Disposable[] {
  // What the catalogue knows of the model (its window and max output), as chat requests use it.
  const limitsOf = (modelId: string): ModelLimits => parts.catalog.find(modelId, parts.settings.current.baseUrl) ?? {};
  const inline = new OpenCodeInlineProvider({ engine: parts.engine, settings: parts.settings, log: parts.log, limitsOf });
  return [
    vscode.languages.registerInlineCompletionItemProvider({ pattern: '**' }, inline),
    new InlineStatus(parts.settings, parts.catalog),
    registerCommitMessage({ ...parts, limitsOf }),
  ];
}
