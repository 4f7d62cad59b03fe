/** The editor features beyond chat, registered together: inline suggestions (provider and toggle) and commit messages. */
import * as vscode from 'vscode';
import { registerCommitMessage } from './commitMessage';
import type { EndpointRegistry } from './endpointParts';
import { OpenCodeInlineProvider } from './inlineProvider';
import { InlineStatus } from './inlineStatus';
import { INLINE_SCHEMES } from '../core/inline/inlineWhere';
import type { SettingsReader } from './settingsReader';

export interface EditorFeatureParts {
  /** The features name their model by its pick id (any enabled endpoint's). */
  endpoints: EndpointRegistry;
  settings: SettingsReader;
  log: vscode.LogOutputChannel;
}

export function registerEditorFeatures({ endpoints, settings, log }: EditorFeatureParts): vscode.Disposable[] {
  // What the model's endpoint lists of it; the engine resolves it through the model table, as for chat requests.
  const listedOf = (modelId: string) => endpoints.listedOf(modelId);
  const models = { models: async () => (await endpoints.models()).map(({ entry, pickId }) => ({ ...entry, id: pickId })) };
  const inline = new OpenCodeInlineProvider({ engine: endpoints.engine, settings, log, listedOf });
  return [
    // Files and untitled documents only (not the chat input, the commit box, outputs, settings): inlineWhere.ts.
    vscode.languages.registerInlineCompletionItemProvider(INLINE_SCHEMES.map((scheme) => ({ scheme })), inline),
    new InlineStatus(settings, models),
    registerCommitMessage({ engine: endpoints.engine, settings, log, models, listedOf }),
  ];
}
