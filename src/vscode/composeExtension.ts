/**
 * Builds the extension's parts and wires them together: one log channel, settings, key store, model
 * catalog, engine, provider, commands and the @opencode participant. extension.ts calls it; tests call it
 * too, with the engine's timing injected so retry waits do not slow the suite.
 */
import * as vscode from 'vscode';
import { isLoopbackUrl } from '../core/config/endpoint';
import { QuotaService } from '../core/quota/quotaService';
import { limitSentence } from '../core/quota/quotaText';
import { RequestLog } from '../core/report/requestLog';
import { ChatEngine, type EngineTiming } from '../core/request/chatEngine';
import { ApiKeyStore } from './apiKey';
import { registerOpenCodeParticipant } from './chatParticipant';
import { offerToSetKey, registerCommands } from './commands';
import { ModelCatalog } from './modelCatalog';
import { OpenCodeChatProvider } from './provider';
import { RequestRecorderFile } from './requestRecorderFile';
import { ReportPanels } from './reportPanel';
import { SettingsReader } from './settingsReader';
import { OpenCodeStatusBar } from './statusBar';
import { welcomeOnce } from './welcome';

export interface ComposeOptions {
  timing?: Partial<EngineTiming>;
}

export interface ComposedExtension {
  log: vscode.LogOutputChannel;
  settings: SettingsReader;
  engine: ChatEngine;
  provider: OpenCodeChatProvider;
  requests: RequestLog;
  statusBar: OpenCodeStatusBar;
}

export function composeExtension(context: vscode.ExtensionContext, options: ComposeOptions = {}): ComposedExtension {
  const log = vscode.window.createOutputChannel('OpenCode', { log: true });
  const settings = new SettingsReader(log);
  const keys = new ApiKeyStore(context.secrets);
  const endpoint = async () => ({ baseUrl: settings.current.baseUrl, apiKey: await keys.get() });
  const catalog = new ModelCatalog(context.globalState, log, endpoint);
  const recorder = new RequestRecorderFile(context.logUri.fsPath, log);
  const requests = new RequestLog();
  const quota = new QuotaService({ endpoint, log });
  const statusBar = new OpenCodeStatusBar(requests, settings, quota, async () => !isLoopbackUrl(settings.current.baseUrl) && !(await keys.get()));
  const usable = async (): Promise<boolean> => isLoopbackUrl(settings.current.baseUrl) || !!(await keys.get());
  // The one-time welcome, once the endpoint is usable: at start, or when a key or the base URL arrives.
  const greet = (): void => void welcomeOnce(context.globalState, settings.current.baseUrl, usable).catch(() => undefined);
  const reports = new ReportPanels(requests, settings, quota, log, context.logUri.fsPath);
  const engine = new ChatEngine({
    log,
    store: context.globalState,
    settings: () => settings.current,
    apiKey: () => keys.get(),
    // Called during requests only, after `provider` below exists.
    onLimitsChanged: () => provider.notifyInfoChanged(),
    record: (prepared) => settings.current.recordRequests && recorder.record(prepared),
    onAccounted: (modelId, prepared, usage) => {
      requests.add(modelId, prepared, usage, Date.now(), prepared.route.id);
      if (settings.current.recordRequests) recorder.accounted(prepared, usage.contextTokens);
      statusBar.update();
      reports.refresh(prepared.sessionId);
      void quota.refresh();
    },
    timing: options.timing,
  });
  const explainLimit = async (): Promise<string | undefined> => {
    await quota.refresh();
    return limitSentence(quota.current);
  };
  const provider = new OpenCodeChatProvider(engine, catalog, settings, log, () => void offerToSetKey(keys, settings.current.baseUrl), explainLimit);
  quota.onDidChange(() => {
    statusBar.update();
    reports.refreshAll();
  });
  context.subscriptions.push(
    log,
    settings,
    catalog,
    vscode.lm.registerLanguageModelChatProvider('opencode', provider),
    statusBar,
    reports,
    ...registerCommands(keys, catalog, log),
    vscode.commands.registerCommand('opencode.showReport', (sessionId?: unknown) => reports.show(typeof sessionId === 'string' ? sessionId : undefined)),
    catalog.onDidChange(() => provider.notifyInfoChanged()),
    keys.onDidChange(() => {
      statusBar.update();
      greet();
      void catalog.refresh().catch(() => undefined);
    }),
    settings.onDidChange(() => {
      provider.notifyInfoChanged();
      statusBar.update();
      greet();
      void catalog.refresh().catch(() => undefined);
    }),
  );
  statusBar.update();
  greet();
  registerOpenCodeParticipant(context, log, { lastRequest: () => requests.latest() });
  return { log, settings, engine, provider, requests, statusBar };
}
