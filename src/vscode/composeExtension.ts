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
import type { UserFacingError } from '../core/request/userFacingError';
import { OPENCODE_CLIENT } from '../core/request/chatTransport';
import { CacheWarmer, NODE_TIMERS, type WarmTimers } from '../core/warming/cacheWarmer';
import { sendWarming } from '../core/warming/warmRequest';
import { warmingHooks, warmingSettings } from '../core/warming/warmingHooks';
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
import { endpointChosen, openChat, WalkthroughSteps, welcomeOnce } from './welcome';
import { registerEditorFeatures } from './editorFeatures';

export interface ComposeOptions {
  timing?: Partial<EngineTiming>;
  /** The warming timers (tests drive them). */
  warmTimers?: WarmTimers;
}

export interface ComposedExtension {
  log: vscode.LogOutputChannel;
  settings: SettingsReader;
  engine: ChatEngine;
  provider: OpenCodeChatProvider;
  requests: RequestLog;
  statusBar: OpenCodeStatusBar;
}

/**
 * The welcome is tried whenever the endpoint may have become usable: at start, after a key or settings change; the
 * walkthrough's first step is ticked at the same moments.
 */
function welcomeTrigger(context: vscode.ExtensionContext, settings: SettingsReader, keys: ApiKeyStore, steps: WalkthroughSteps): () => void {
  const usable = async (): Promise<boolean> => isLoopbackUrl(settings.current.baseUrl) || !!(await keys.get());
  const tick = async (): Promise<void> => {
    if (endpointChosen(!!(await keys.get()))) steps.mark('endpoint');
  };
  return () => {
    void tick().catch(() => undefined);
    void welcomeOnce(context.globalState, settings.current.baseUrl, usable).catch(() => undefined);
  };
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
  steps: WalkthroughSteps;
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
  const steps = new WalkthroughSteps();
  return { log, settings, keys, catalog, requests, quota, statusBar, reports, steps, welcome: welcomeTrigger(context, settings, keys, steps) };
}

/** The engine; `provider()` is read only during requests, after the provider exists. */
function createEngine(context: vscode.ExtensionContext, parts: Parts, provider: () => OpenCodeChatProvider, options: ComposeOptions): ChatEngine {
  const { log, settings, keys, requests, statusBar, reports, quota } = parts;
  const recorder = new RequestRecorderFile(context.logUri.fsPath, log);
  const warmer = new CacheWarmer({
    timers: options.warmTimers ?? NODE_TIMERS,
    settings: () => warmingSettings(settings.current),
    send: (target, body, signal) => sendWarming({ endpoint: async () => ({ baseUrl: settings.current.baseUrl, apiKey: await keys.get() }), client: OPENCODE_CLIENT, idleTimeoutMs: settings.current.streamIdleTimeoutSeconds * 1000 }, target, body, signal),
    log,
    onWarmed: (target, outcome) => {
      requests.addWarming(target.sessionId, outcome.cost);
      statusBar.update();
    },
  });
  context.subscriptions.push({ dispose: () => warmer.dispose() });
  const warming = warmingHooks(warmer, () => settings.current, (modelId) => engine.refusedParams[modelId] ?? []);
  const engine: ChatEngine = new ChatEngine({
    log,
    store: context.globalState,
    settings: () => settings.current,
    apiKey: () => keys.get(),
    onLimitsChanged: () => provider().notifyInfoChanged(),
    notify: (message) => void vscode.window.showWarningMessage(message),
    record: (prepared, sent) => settings.current.recordRequests && recorder.record(prepared, sent),
    onAttempt: warming.onAttempt,
    onAccounted: (modelId, prepared, usage, cost) => {
      warming.onAccounted(modelId, prepared, usage);
      requests.add(modelId, prepared, usage, Date.now(), prepared.route.id, cost);
      parts.steps.mark('model');
      if (settings.current.recordRequests) recorder.accounted(prepared, usage.contextTokens);
      statusBar.update();
      reports.refresh(prepared.sessionId);
      void quota.refresh();
    },
    timing: options.timing,
  });
  reports.useSizes(engine.memo);
  return engine;
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
    vscode.commands.registerCommand('opencode.openChat', () => openChat()),
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
  const onFailed = (error: UserFacingError): void => (error.kind === 'context' ? statusBar.refused(error.message) : undefined);
  const provider = new OpenCodeChatProvider(engine, parts.catalog, settings, log, () => void offerToSetKey(keys, settings.current.baseUrl), explainLimit, onFailed);
  quota.onDidChange(() => {
    statusBar.update();
    reports.refreshAll();
  });
  context.subscriptions.push(...subscriptions(parts, provider), ...registerEditorFeatures({ engine, settings, catalog: parts.catalog, log }));
  context.subscriptions.push(startLiveModelData(context.globalState, log, settings, () => provider.notifyInfoChanged()));
  statusBar.update();
  parts.welcome();
  registerOpenCodeParticipant(context, log, { lastRequest: () => requests.latest(), onAnswered: () => parts.steps.mark('chat') });
  return { log, settings, engine, provider, requests, statusBar };
}
