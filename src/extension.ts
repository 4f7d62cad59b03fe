/** Activation wires the parts together and does nothing else. */
import * as vscode from 'vscode';
import { ChatEngine } from './core/request/chatEngine';
import { ApiKeyStore } from './vscode/apiKey';
import { registerOpenCodeParticipant } from './vscode/chatParticipant';
import { offerToSetKey, registerCommands } from './vscode/commands';
import { ModelCatalog } from './vscode/modelCatalog';
import { OpenCodeChatProvider } from './vscode/provider';
import { RequestRecorderFile } from './vscode/requestRecorderFile';
import { SettingsReader } from './vscode/settingsReader';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('OpenCode', { log: true });
  const settings = new SettingsReader(log);
  const keys = new ApiKeyStore(context.secrets);
  const endpoint = async () => ({ baseUrl: settings.current.baseUrl, apiKey: await keys.get() });
  const catalog = new ModelCatalog(context.globalState, log, endpoint);
  const recorder = new RequestRecorderFile(context.logUri.fsPath, log);
  const engine = new ChatEngine({
    log,
    store: context.globalState,
    settings: () => settings.current,
    apiKey: () => keys.get(),
    // Called during requests only, after `provider` below exists.
    onLimitsChanged: () => provider.notifyInfoChanged(),
    record: (prepared) => settings.current.recordRequests && recorder.record(prepared),
  });
  const provider = new OpenCodeChatProvider(engine, catalog, settings, log, () => void offerToSetKey(keys, settings.current.baseUrl));
  context.subscriptions.push(
    log,
    settings,
    catalog,
    vscode.lm.registerLanguageModelChatProvider('opencode', provider),
    ...registerCommands(keys, catalog, log),
    catalog.onDidChange(() => provider.notifyInfoChanged()),
    keys.onDidChange(() => void catalog.refresh().catch(() => undefined)),
    settings.onDidChange(() => {
      provider.notifyInfoChanged();
      void catalog.refresh().catch(() => undefined);
    }),
  );
  registerOpenCodeParticipant(context, log);
  log.info(`[activate] OpenCode chat provider ${context.extension.packageJSON.version} — endpoint ${settings.current.baseUrl}`);
}

export function deactivate(): void {}
