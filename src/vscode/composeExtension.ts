/**
 * Builds the extension's parts and wires them together: one log channel, settings, key store, model
 * catalog, engine, provider, commands and the @opencode participant. extension.ts calls it; tests call it
 * too, with the engine's timing injected so retry waits do not slow the suite.
 */
import * as vscode from 'vscode';
import { ChatEngine, type EngineTiming } from '../core/request/chatEngine';
import { ApiKeyStore } from './apiKey';
import { registerOpenCodeParticipant } from './chatParticipant';
import { offerToSetKey, registerCommands } from './commands';
import { ModelCatalog } from './modelCatalog';
import { OpenCodeChatProvider } from './provider';
import { RequestRecorderFile } from './requestRecorderFile';
import { SettingsReader } from './settingsReader';

export interface ComposeOptions {
  timing?: Partial<EngineTiming>;
}

export interface ComposedExtension {
  log: vscode.LogOutputChannel;
  settings: SettingsReader;
  engine: ChatEngine;
  provider: OpenCodeChatProvider;
}

export function composeExtension(context: vscode.ExtensionContext, options: ComposeOptions = {}): ComposedExtension {
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
    timing: options.timing,
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
  return { log, settings, engine, provider };
}
