/**
 * Builds the extension's parts and wires them together: one log channel, settings, key store, model
 * catalog, engine, provider, commands and the @opencode participant. extension.ts calls it; tests call it
 * too, with the engine's timing injected so retry waits do not slow the suite.
 */
import * as vscode from 'vscode';
import { isLoopbackUrl } from '../core/config/endpoint';
import { setHostVersion } from '../core/request/clientOptions';
import { QuotaService } from '../core/quota/quotaService';
import { limitSentence } from '../core/quota/quotaText';
import { RequestLog } from '../core/report/requestLog';
import { ChatEngine, type EngineTiming } from '../core/request/chatEngine';
import { ApiKeyStore } from './apiKey';
import { registerOpenCodeParticipant } from './chatParticipant';
import { offerToSetKey, registerCommands } from './commands';
import { ModelCatalog } from './modelCatalog';
import { startLiveModelData } from './liveModelData';
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

/** The welcome is tried whenever the endpoint may have become usable: at start, after a key or settings change. */
function welcomeTrigger(context: vscode.ExtensionContext, settings: SettingsReader, keys: ApiKeyStore): () => void {
  const usable = async (): Promise<boolean> => isLoopbackUrl(settings.current.baseUrl) || !!(await keys.get());
  return () => void welcomeOnce(context.globalState, settings.current.baseUrl, usable).catch(() => undefined);
}

interface Parts {
  log: vscode.LogOutputChannel;
  settings: SettingsReader;
  keys: ApiKeyStore;
  catalog: ModelCatalog;
  requests: RequestLog;
  quota: QuotaService;
  statusBar: OpenCodeStatusBar;
  reports: ReportPanels;
  welcome: () => void;
}

function createParts(context: vscode.ExtensionContext): Parts {
  const log = vscode.window.createOutputChannel('OpenCode', { log: true });
  const settings = new SettingsReader(log);
  const keys = new ApiKeyStore(context.secrets);
  const endpoint = async () => ({ baseUrl: settings.current.baseUrl, apiKey: await keys.get() });
  const catalog = new ModelCatalog(context.globalState, log, endpoint, () => settings.current.catalog);
  const requests = new RequestLog();
  const quota = new QuotaService({ endpoint, log });
  const statusBar = new OpenCodeStatusBar(requests, settings, quota, async () => !isLoopbackUrl(settings.current.baseUrl) && !(await keys.get()));
  const reports = new ReportPanels(requests, settings, quota, log, context.logUri.fsPath);
  return { log, settings, keys, catalog, requests, quota, statusBar, reports, welcome: welcomeTrigger(context, settings, keys) };
}

/** The engine; `provider()` is read only during requests, after the provider exists. */
function createEngine(context: vscode.ExtensionContext, parts: Parts, provider: () => OpenCodeChatProvider, options: ComposeOptions): ChatEngine {
  const { log, settings, keys, requests, statusBar, reports, quota } = parts;
  const recorder = new RequestRecorderFile(context.logUri.fsPath, log);
  return new ChatEngine({
    log,
    store: context.globalState,
    settings: () => settings.current,
    apiKey: () => keys.get(),
    onLimitsChanged: () => provider().notifyInfoChanged(),
    notify: (message) => void vscode.window.showWarningMessage(message),
    record: (prepared, sent) => settings.current.recordRequests && recorder.record(prepared, sent),
    onAccounted: (modelId, prepared, usage) => {
      requests.add(modelId, prepared, usage, Date.now(), prepared.route.id);
      if (settings.current.recordRequests) recorder.accounted(prepared, usage.contextTokens);
      statusBar.update();
      reports.refresh(prepared.sessionId);
      void quota.refresh();
    },
    timing: options.timing,
  });
}

function subscriptions(parts: Parts, provider: OpenCodeChatProvider): vscode.Disposable[] {
  const { log, settings, keys, catalog, statusBar, reports } = parts;
  const endpointChanged = (): void => {
    statusBar.update();
    parts.welcome();
    void catalog.refresh().catch(() => undefined);
  };
  return [
    log,
    settings,
    catalog,
    vscode.lm.registerLanguageModelChatProvider('opencode', provider),
    statusBar,
    reports,
    ...registerCommands(keys, catalog, log),
    vscode.commands.registerCommand('opencode.showReport', (sessionId?: unknown) => reports.show(typeof sessionId === 'string' ? sessionId : undefined)),
    catalog.onDidChange(() => provider.notifyInfoChanged()),
    keys.onDidChange(endpointChanged),
    settings.onDidChange(() => {
      provider.notifyInfoChanged();
      endpointChanged();
    }),
  ];
}

export function composeExtension(context: vscode.ExtensionContext, options: ComposeOptions = {}): ComposedExtension {
  setHostVersion(vscode.version ?? '');
  const parts = createParts(context);
  const { log, settings, keys, requests, quota, statusBar, reports } = parts;
  const engine = createEngine(context, parts, () => provider, options);
  const explainLimit = async (): Promise<string | undefined> => {
    await quota.refresh();
    return limitSentence(quota.current);
  };
  const provider = new OpenCodeChatProvider(engine, parts.catalog, settings, log, () => void offerToSetKey(keys, settings.current.baseUrl), explainLimit);
  quota.onDidChange(() => {
    statusBar.update();
    reports.refreshAll();
  });
  context.subscriptions.push(...subscriptions(parts, provider));
  context.subscriptions.push(startLiveModelData(context.globalState, log, settings, () => provider.notifyInfoChanged()));
  statusBar.update();
  parts.welcome();
  registerOpenCodeParticipant(context, log, { lastRequest: () => requests.latest() });
  return { log, settings, engine, provider, requests, statusBar };
}
