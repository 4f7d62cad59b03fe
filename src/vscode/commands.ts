/** The extension's commands: Set API Key (asks which endpoint when several are enabled), Add Endpoint, Refresh Models, Show Log. */
import * as vscode from 'vscode';
import { addEndpoint } from './addEndpoint';
import type { ApiKeyStore } from './apiKey';
import type { EndpointPart, EndpointRegistry } from './endpointParts';
import { redact, redactUrl } from '../core/util/redact';

export function registerCommands(keys: ApiKeyStore, endpoints: EndpointRegistry, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    // An endpoint id as argument skips the question (a walkthrough link, a test).
    vscode.commands.registerCommand('opencode.setApiKey', async (endpointId?: unknown) => {
      const part = await chooseEndpoint(keys, endpoints, typeof endpointId === 'string' ? endpointId : undefined);
      if (!part) return;
      const target = endpoints.keyTarget(part);
      if (!(await keys.promptAndStore(target))) return;
      const saved = !!(await keys.get(target).catch(() => undefined));
      const label = part.config().label;
      log.info(saved ? `[key] API key for ${label} updated in secret storage.` : `[key] API key for ${label} removed from secret storage.`);
      void vscode.window.showInformationMessage(saved ? `OpenCode: API key for ${label} saved in secret storage.` : `OpenCode: stored API key for ${label} removed.`);
      await refreshWithFeedback([part]);
    }),
    vscode.commands.registerCommand('opencode.refreshModels', () => refreshWithFeedback(endpoints.all())),
    vscode.commands.registerCommand('opencode.addEndpoint', () => addEndpoint(endpoints)),
    vscode.commands.registerCommand('opencode.showLog', () => log.show(true)),
  ];
}

/** The endpoint whose key to set: the only one, the one named, or the user's pick (each marked with whether it has a key). */
async function chooseEndpoint(keys: ApiKeyStore, endpoints: EndpointRegistry, id: string | undefined): Promise<EndpointPart | undefined> {
  const parts = endpoints.all();
  const named = id === undefined ? undefined : parts.find((part) => part.config().id === id);
  if (named || parts.length === 1) return named ?? parts[0];
  const items = await Promise.all(
    parts.map(async (part) => {
      const hasKey = !!(await keys.get(endpoints.keyTarget(part)).catch(() => undefined));
      return { label: part.config().label, description: redactUrl(part.config().baseUrl), detail: hasKey ? 'A key is set.' : 'No key set.', part };
    }),
  );
  return (await vscode.window.showQuickPick(items, { title: 'OpenCode: set the API key of which endpoint?' }))?.part;
}

async function refreshWithFeedback(parts: readonly EndpointPart[]): Promise<void> {
  const results = await Promise.all(parts.map((part) => part.list.refresh().then((models) => ({ part, models }), (error: unknown) => ({ part, error }))));
  // Each failure says what failed and what to do about it (listFailure.ts): never "check the API key" for a DNS error.
  const failed = results.flatMap((r) => ('error' in r ? [`${r.part.config().label}: ${redact(r.error instanceof Error ? r.error.message : String(r.error))}`] : []));
  const listed = results.reduce((sum, r) => sum + ('models' in r ? r.models.length : 0), 0);
  if (failed.length === 0) return void vscode.window.showInformationMessage(`OpenCode: ${listed} model(s) available.`);
  void vscode.window.showErrorMessage(`OpenCode could not list models — ${failed.join(' ')}`);
}

/** Shown when the user opened the model list and the default endpoint could list nothing for want of a key. */
export async function offerToSetKey(keys: ApiKeyStore, endpoints: EndpointRegistry): Promise<void> {
  const part = endpoints.default();
  // An unusable stored key also needs a new one.
  if (await keys.get(endpoints.keyTarget(part)).catch(() => undefined)) return;
  const choice = await vscode.window.showInformationMessage(`OpenCode needs an API key to list the models at ${redactUrl(part.config().baseUrl)}.`, 'Set API Key');
  if (choice === 'Set API Key') await vscode.commands.executeCommand('opencode.setApiKey', part.config().id);
}
