/** The extension's commands: Set API Key, Refresh Models, Show Log. */
import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKey';
import type { ModelCatalog } from './modelCatalog';
import { redact, redactUrl } from '../core/util/redact';

export function registerCommands(keys: ApiKeyStore, catalog: ModelCatalog, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('opencode.setApiKey', async () => {
      if (!(await keys.promptAndStore())) return;
      const saved = !!(await keys.get());
      log.info(saved ? '[key] API key updated in secret storage.' : '[key] API key removed from secret storage.');
      void vscode.window.showInformationMessage(saved ? 'OpenCode: API key saved in secret storage.' : 'OpenCode: stored API key removed.');
      await refreshWithFeedback(catalog);
    }),
    vscode.commands.registerCommand('opencode.refreshModels', () => refreshWithFeedback(catalog)),
    vscode.commands.registerCommand('opencode.showLog', () => log.show(true)),
  ];
}

async function refreshWithFeedback(catalog: ModelCatalog): Promise<void> {
  try {
    const models = await catalog.refresh();
    void vscode.window.showInformationMessage(`OpenCode: ${models.length} model(s) available.`);
  } catch (error) {
    const message = redact(error instanceof Error ? error.message : String(error));
    void vscode.window.showErrorMessage(`OpenCode: could not list models (${message}). Check the API key ("OpenCode: Set API Key") and opencode.baseUrl, or run "OpenCode: Show Log".`);
  }
}

/** Shown when the user opened the model list and nothing could be listed for want of a key. */
export async function offerToSetKey(keys: ApiKeyStore, baseUrl: string): Promise<void> {
  // An unusable stored key also needs a new one.
  if (await keys.get().catch(() => undefined)) return;
  const choice = await vscode.window.showInformationMessage(`OpenCode needs an API key to list the models at ${redactUrl(baseUrl)}.`, 'Set API Key');
  if (choice === 'Set API Key') await vscode.commands.executeCommand('opencode.setApiKey');
}
